package org.scache.benchmarks.store;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import org.scache.master.predict.ReducePrediction;
import org.scache.master.schedule.FifoRoundRobinScheduler;
import org.scache.master.schedule.HeuristicMinHeapScheduler;
import org.scache.master.schedule.HostPlacement;
import org.scache.master.schedule.RandomScheduler;
import org.scache.master.schedule.ReduceScheduler;

/**
 * Simulates reduce-stage completion under the pre-scheduling algorithms (the paper's Fig. 3 setup)
 * and prints four tables: makespan against the lower bound, prediction error, Algorithm 1's
 * scheduling time at scale, and network bytes moved with and without the locality swap.
 */
public final class MakespanSimulator {
  private static final int HOSTS = 20;
  private static final int SLOTS = 4;
  private static final double[] ZIPF_EXPONENTS = {0.4, 0.8};
  private static final double ZIPF = 0.8;
  private static final int TRIALS = 30;

  private MakespanSimulator() {}

  /** Runs every table; {@code --quick} skips the timing table. */
  public static void main(String[] args) {
    PrintStream out = System.out;
    for (double exponent : ZIPF_EXPONENTS) {
      makespanTable(out, exponent);
      out.println();
    }
    PredictionErrorBenchmark.run(out);
    out.println();
    if (args.length == 0 || !args[0].equals("--quick")) {
      schedulingTime(out, 100_000, 1_000);
      out.println();
    }
    LocalityBenchmark.run(out);
  }

  static void makespanTable(PrintStream out, double exponent) {
    out.printf(
        "Stage completion time: %d hosts × %d slots, Zipf(%.1f) reduce sizes, unit speed, mean of %d trials;%n",
        HOSTS, SLOTS, exponent, TRIALS);
    out.println("ratio of the makespan to the lower bound max(total / slots, largest reduce)");
    out.printf(
        "%-7s %8s %9s %9s %9s %9s %9s %9s %8s %8s%n",
        "rounds", "reduces", "largest", "random", "FIFO-RR", "FIFO-dyn", "MinHeap", "MinHeap", "MinHeap", "LPT≤4/3");
    out.printf(
        "%-7s %8s %9s %9s %9s %9s %9s %9s %8s %8s%n", "", "", "/slot avg", "", "", "", "id order", "big 1st", "rounds",
            "");
    List<String> hosts = Workloads.hosts(HOSTS);
    for (int rounds = 1; rounds <= 10; rounds++) {
      int n = HOSTS * SLOTS * rounds;
      double[] ratio = new double[5];
      double minHeapRounds = 0;
      double largestShare = 0;
      boolean withinFourThirds = true;
      for (int trial = 0; trial < TRIALS; trial++) {
        SplittableRandom random = new SplittableRandom(1000L * rounds + trial);
        double[] sizes = Workloads.zipfSizes(n, exponent, random);
        largestShare += Workloads.max(sizes) / Workloads.sum(sizes) * HOSTS * SLOTS / TRIALS;
        List<ReducePrediction> reduces = Workloads.withoutHosts(sizes);
        double lowerBound = Math.max(Workloads.sum(sizes) / (HOSTS * SLOTS), Workloads.max(sizes));
        ReduceScheduler[] schedulers = {
          new RandomScheduler(random), new FifoRoundRobinScheduler(), new HeuristicMinHeapScheduler()
        };
        HostPlacement heap = null;
        for (int s = 0; s < schedulers.length; s++) {
          HostPlacement result = schedulers[s].schedule(HOSTS, hosts, reduces);
          int column = s == 2 ? 3 : s;
          ratio[column] += stageMakespan(result, hosts, SLOTS, false) / lowerBound / TRIALS;
          heap = result;
        }
        ratio[4] += stageMakespan(heap, hosts, SLOTS, true) / lowerBound / TRIALS;
        ratio[2] += dynamicFifoMakespan(sizes, HOSTS * SLOTS) / lowerBound / TRIALS;
        minHeapRounds += (double) heap.rounds(SLOTS) / TRIALS;
        double hostBound = Math.max(Workloads.sum(sizes) / HOSTS, Workloads.max(sizes));
        withinFourThirds &= heap.maxLoad() <= 4.0 / 3 * hostBound + 1e-9;
      }
      out.printf(
          "%-7d %8d %9.2f %9.3f %9.3f %9.3f %9.3f %9.3f %8.2f %8s%n",
          rounds, n, largestShare, ratio[0], ratio[1], ratio[2], ratio[3], ratio[4], minHeapRounds, withinFourThirds
              ? "yes" : "NO");
    }
    out.println("random/FIFO-RR/MinHeap: placed before launch, each host runs its reduces on its slots in id");
    out.println("order (MinHeap big 1st: largest first); FIFO-dyn: dynamic FIFO, next reduce id to the first "
        + "free slot.");
    out.println("largest/slot avg: largest reduce over total / slots (> 1: the largest reduce is the bound).");
    out.println("MinHeap rounds: reduces on the busiest host (by count) / slots; the others use exactly `rounds`.");
    out.println("LPT≤4/3: host-level LPT max load ≤ 4/3 × max(total / hosts, largest) in every trial.");
  }

  /**
   * Completion time when each host runs its reduces on {@code slots} unit-speed slots, in reduce id
   * order (as frameworks launch them) or largest first.
   */
  static double stageMakespan(HostPlacement result, List<String> hosts, int slots, boolean largestFirst) {
    double makespan = 0;
    for (String host : hosts) {
      PriorityQueue<Double> free = new PriorityQueue<>();
      for (int s = 0; s < slots; s++) {
        free.add(0.0);
      }
      List<Integer> order = new ArrayList<>(result.reducesOn(host));
      if (largestFirst) {
        order.sort((a, b) -> Double.compare(result.sizeOf(b), result.sizeOf(a)));
      }
      for (int reduce : order) {
        double end = free.poll() + result.sizeOf(reduce);
        free.add(end);
        makespan = Math.max(makespan, end);
      }
    }
    return makespan;
  }

  /** Completion time of greedy list scheduling in reduce id order over all slots of the cluster. */
  static double dynamicFifoMakespan(double[] sizes, int totalSlots) {
    PriorityQueue<Double> free = new PriorityQueue<>();
    for (int s = 0; s < totalSlots; s++) {
      free.add(0.0);
    }
    double makespan = 0;
    for (double size : sizes) {
      double end = free.poll() + size;
      free.add(end);
      makespan = Math.max(makespan, end);
    }
    return makespan;
  }

  static void schedulingTime(PrintStream out, int reduceCount, int hostCount) {
    SplittableRandom random = new SplittableRandom(7);
    List<String> hosts = Workloads.hosts(hostCount);
    double[] sizes = Workloads.zipfSizes(reduceCount, ZIPF, random);
    List<ReducePrediction> reduces = new ArrayList<>(reduceCount);
    for (int i = 0; i < reduceCount; i++) {
      reduces.add(ReducePrediction.onHost(i, sizes[i], random.nextDouble(), hosts.get(random.nextInt(hostCount))));
    }
    out.printf("Scheduling time of Algorithm 1: %,d reduces on %,d hosts (JIT warmed up, median of 11 runs)%n",
        reduceCount, hostCount);
    for (boolean swap : new boolean[] {false, true}) {
      HeuristicMinHeapScheduler scheduler = new HeuristicMinHeapScheduler(swap);
      for (int warm = 0; warm < 10; warm++) {
        scheduler.scheduleDetailed(hostCount, hosts, reduces);
      }
      double[] millis = new double[11];
      int swaps = 0;
      for (int run = 0; run < millis.length; run++) {
        long start = System.nanoTime();
        swaps = scheduler.scheduleDetailed(hostCount, hosts, reduces).swaps().size();
        millis[run] = (System.nanoTime() - start) / 1e6;
      }
      out.printf(
          "  %-26s median %8.1f ms  (min %.1f, max %.1f, %,d swaps; target ≤ 100 ms)%n",
          swap ? "LPT + locality swap" : "LPT only",
          Workloads.median(millis),
          Arrays.stream(millis).min().orElse(0),
          Arrays.stream(millis).max().orElse(0),
          swaps);
    }
  }
}
