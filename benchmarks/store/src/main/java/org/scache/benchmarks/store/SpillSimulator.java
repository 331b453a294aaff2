package org.scache.benchmarks.store;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.scache.common.BlockId;
import org.scache.worker.spill.SpillCandidate;
import org.scache.worker.spill.SpillPolicy;

/**
 * Simulates a multi-round reduce stage under memory pressure (paper Section IV-B, the PACMan
 * argument): several shuffles submitted in FIFO order put their map output on hosts whose reserve
 * holds only part of it; victims are chosen by the worker's real {@link SpillPolicy}
 * implementations (the paper's context-aware policy, LRU) or at random. Then the reducers run in
 * rounds of {@code slots} per host, shuffle after shuffle; a round ends when its slowest reducer
 * ends. A reducer reads its in-memory input at memory speed and its spilled input from disk. While
 * a round runs, each host loads spilled blocks back into the memory freed by the rounds before, at
 * disk speed, in the reverse of the policy's victim order (optimistic: the reload does not compete with
 * the reducers' own disk reads). Prints the stage completion time per policy and reserve, as ratios.
 */
public final class SpillSimulator {
  private static final int HOSTS = 10;
  private static final int SLOTS = 4;
  private static final int SHUFFLES = 3;
  private static final int ROUNDS = 4;
  private static final int MAPS = 20;
  private static final double COMPUTE_MB_S = 200;
  /** A host's disk bandwidth, shared by its slots. */
  private static final double DISK_MB_S = 400;
  private static final double MEMORY_MB_S = 5000;
  private static final double[] RESERVES = {0.25, 0.5, 0.75};
  private static final int TRIALS = 5;

  private SpillSimulator() {}

  /** One block of map output on a host. */
  private static final class Block {
    final BlockId id;
    final long bytes;
    final int round;
    final long seq;
    boolean inMemory;

    Block(BlockId id, long bytes, int round, long seq) {
      this.id = id;
      this.bytes = bytes;
      this.round = round;
      this.seq = seq;
    }
  }

  private record RoundKey(int shuffle, int round) {}

  /** One host's memory and the cluster-wide count of spilled blocks per round (all-or-nothing). */
  private static final class Host {
    final long reserve;
    final List<Block> blocks = new ArrayList<>();
    long used;

    Host(long reserve) {
      this.reserve = reserve;
    }
  }

  public static void main(String[] args) {
    int trials = args.length > 0 && args[0].equals("--quick") ? 1 : TRIALS;
    run(System.out, trials);
  }

  static void run(PrintStream out, int trials) {
    out.printf("Reduce-stage completion under memory pressure: %d hosts × %d slots, %d shuffles in FIFO order, "
        + "%d rounds each,%n%d maps; reducer input uniform in [0.5, 1.5] × 64 MiB; compute %.0f MB/s, disk %.0f MB/s "
        + "per host (shared by its slots),%nmemory %.0f MB/s; mean of %d trials. Times in seconds; ratios to the "
        + "paper's policy (> 1: slower than it).%n", HOSTS, SLOTS, SHUFFLES, ROUNDS, MAPS, COMPUTE_MB_S, DISK_MB_S,
        MEMORY_MB_S, trials);
    out.printf("%-8s %9s %9s %9s %9s %10s %10s %10s%n", "reserve", "all-mem", "paper", "LRU", "random",
        "paper/mem", "LRU/paper", "rand/paper");
    for (double reserve : RESERVES) {
      double[] t = new double[4];
      for (int trial = 0; trial < trials; trial++) {
        t[0] += simulate(reserve, SpillPolicy.contextAware(), trial, true) / trials;
        t[1] += simulate(reserve, SpillPolicy.contextAware(), trial, false) / trials;
        t[2] += simulate(reserve, SpillPolicy.lru(), trial, false) / trials;
        t[3] += simulate(reserve, new RandomSpillPolicy(trial), trial, false) / trials;
      }
      out.printf("%-8s %9.1f %9.1f %9.1f %9.1f %10.3f %10.3f %10.3f%n", (int) (reserve * 100) + "%", t[0], t[1], t[2],
          t[3], t[1] / t[0], t[2] / t[1], t[3] / t[1]);
    }
    out.println("reserve: per host, as a share of all the shuffle data placed on it. all-mem: every input in memory.");
  }

  /** The stage completion time in seconds. */
  static double simulate(double reserveShare, SpillPolicy policy, int trial, boolean allInMemory) {
    SplittableRandom random = new SplittableRandom(7919L * trial + 17);
    int reducesPerShuffle = HOSTS * SLOTS * ROUNDS;
    double[][] inputMb = new double[SHUFFLES][reducesPerShuffle];
    double[] perHostMb = new double[HOSTS];
    for (int s = 0; s < SHUFFLES; s++) {
      for (int r = 0; r < reducesPerShuffle; r++) {
        inputMb[s][r] = 64 * (0.5 + random.nextDouble());
        perHostMb[r % HOSTS] += inputMb[s][r];
      }
    }
    Host[] hosts = new Host[HOSTS];
    for (int h = 0; h < HOSTS; h++) {
      hosts[h] = new Host(allInMemory ? Long.MAX_VALUE : (long) (reserveShare * perHostMb[h] * (1 << 20)));
    }
    Map<RoundKey, Integer> spilledBlocks = new HashMap<>();
    long seq = 0;
    // map phase: shuffle after shuffle, map after map, each map's block of every reducer to the reducer's host
    for (int s = 0; s < SHUFFLES; s++) {
      for (int m = 0; m < MAPS; m++) {
        for (int r = 0; r < reducesPerShuffle; r++) {
          long bytes = (long) (inputMb[s][r] / MAPS * (1 << 20));
          Block b = new Block(new BlockId("app", s, m, 0, r), bytes, roundOf(r), seq++);
          put(hosts[r % HOSTS], b, policy, spilledBlocks);
        }
      }
    }
    // reduce phase: round after round, each round ends with its slowest reducer
    double time = 0;
    for (int s = 0; s < SHUFFLES; s++) {
      for (int round = 0; round < ROUNDS; round++) {
        double roundTime = 0;
        for (int h = 0; h < HOSTS; h++) {
          for (int slot = 0; slot < SLOTS; slot++) {
            int r = (round * SLOTS + slot) * HOSTS + h;
            double inMem = 0;
            double onDisk = 0;
            for (Block b : hosts[h].blocks) {
              if (b.id.shuffleId() == s && b.id.reduceId() == r) {
                if (b.inMemory) {
                  inMem += b.bytes;
                } else {
                  onDisk += b.bytes;
                }
              }
            }
            double mb = 1.0 / (1 << 20);
            double t = (inMem + onDisk) * mb / COMPUTE_MB_S + inMem * mb / MEMORY_MB_S
                + onDisk * mb / (DISK_MB_S / SLOTS);
            roundTime = Math.max(roundTime, t);
          }
        }
        for (int h = 0; h < HOSTS; h++) {
          // the round's reducers commit: their input is freed
          int round0 = round;
          int shuffle = s;
          Host host = hosts[h];
          host.blocks.removeIf(b -> {
            if (b.id.shuffleId() == shuffle && b.round == round0) {
              if (b.inMemory) {
                host.used -= b.bytes;
              } else {
                spilledBlocks.merge(new RoundKey(shuffle, round0), -1, Integer::sum);
              }
              return true;
            }
            return false;
          });
          reload(host, policy, spilledBlocks, roundTime * DISK_MB_S * (1 << 20));
        }
        time += roundTime;
      }
    }
    return time;
  }

  private static int roundOf(int reduceId) {
    return (reduceId / HOSTS) / SLOTS;
  }

  private static SpillCandidate candidate(Block b, Map<RoundKey, Integer> spilled) {
    boolean incomplete = spilled.getOrDefault(new RoundKey(b.id.shuffleId(), b.round), 0) > 0;
    return SpillCandidate.of(b.id, b.bytes, false, false, b.seq, true, b.id.shuffleId(), b.round, incomplete);
  }

  /** Stores an arriving block, spilling victims (possibly the block itself) by the policy. */
  private static void put(Host host, Block incoming, SpillPolicy policy, Map<RoundKey, Integer> spilled) {
    host.blocks.add(incoming);
    incoming.inMemory = false;
    while (host.used + incoming.bytes > host.reserve) {
      Block victim = incoming;
      SpillCandidate worst = candidate(incoming, spilled);
      for (Block b : host.blocks) {
        if (b.inMemory) {
          SpillCandidate c = candidate(b, spilled);
          if (policy.victimOrder().compare(c, worst) < 0) {
            victim = b;
            worst = c;
          }
        }
      }
      spilled.merge(new RoundKey(victim.id.shuffleId(), victim.round), 1, Integer::sum);
      if (victim == incoming) {
        return;
      }
      victim.inMemory = false;
      host.used -= victim.bytes;
    }
    incoming.inMemory = true;
    host.used += incoming.bytes;
  }

  /** Loads spilled blocks back, the one the policy keeps longest first, up to {@code budget} bytes. */
  private static void reload(Host host, SpillPolicy policy, Map<RoundKey, Integer> spilled, double budget) {
    double left = budget;
    while (true) {
      Block best = null;
      SpillCandidate bestCandidate = null;
      for (Block b : host.blocks) {
        if (!b.inMemory) {
          SpillCandidate c = candidate(b, spilled);
          if (best == null || policy.victimOrder().compare(c, bestCandidate) > 0) {
            best = b;
            bestCandidate = c;
          }
        }
      }
      if (best == null || best.bytes > left || host.used + best.bytes > host.reserve) {
        return;
      }
      best.inMemory = true;
      host.used += best.bytes;
      left -= best.bytes;
      spilled.merge(new RoundKey(best.id.shuffleId(), best.round), -1, Integer::sum);
    }
  }
}
