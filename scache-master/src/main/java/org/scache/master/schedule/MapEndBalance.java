package org.scache.master.schedule;

import static org.scache.common.Checks.require;

import java.util.ArrayList;
import java.util.List;

/**
 * Evens out, once every map of a shuffle has ended, the bytes each worker's link still has to carry, by moving
 * reduces to other workers. The placement was made from the first maps (Algorithm 1), when where the rest would
 * run was unknown; if the framework then ran more maps on one node, that node holds more of every reduce's input
 * and its link sends the most: the last seconds of the shuffle run on it alone. A reduce moved onto that node
 * takes its blocks there off the link and adds the rest of its input to the node's incoming side, which is lighter
 * since the node holds much of what it reads.
 *
 * <p>Each worker's load is the larger of what it sends (its blocks of reduces placed elsewhere) and what it
 * receives (the blocks of its reduces held elsewhere); the shuffle lasts as long as the largest load. Moves are
 * chosen greedily, the one that lowers the largest load most first, each reduce at most once, while a move lowers
 * it by at least {@code minGain} of itself (a moved reduce's blocks already copied to its old worker cross again)
 * and no worker gets more than {@code maxReducesPerWorker} reduces. Not thread-safe.
 */
public final class MapEndBalance {
  /** Reduce {@code reduceId} moves from worker {@code from} to worker {@code to} (indices of the workers). */
  public record Move(int reduceId, int from, int to) {}

  private final double minGain;

  /** @param minGain the least fraction of the largest load a move must save, in (0, 1) */
  public MapEndBalance(double minGain) {
    require(minGain > 0 && minGain < 1, "the least gain must be in (0, 1): %s", minGain);
    this.minGain = minGain;
  }

  /**
   * The moves that even out the links, in the order chosen.
   *
   * @param held {@code held[r][w]}: the bytes of reduce {@code r}'s input that worker {@code w} holds
   * @param hostOf {@code hostOf[r]}: the worker reduce {@code r} is placed on
   * @param maxReducesPerWorker the most reduces one worker may have after the moves
   */
  public List<Move> moves(long[][] held, int[] hostOf, int maxReducesPerWorker) {
    require(held.length == hostOf.length, "%s reduces' holdings for %s placed reduces", held.length, hostOf.length);
    int workers = held.length == 0 ? 0 : held[0].length;
    long[] out = new long[workers];
    long[] in = new long[workers];
    int[] count = new int[workers];
    long[] total = new long[held.length];
    int[] host = hostOf.clone();
    for (int r = 0; r < held.length; r++) {
      require(held[r].length == workers, "reduce %s has holdings on %s workers, not %s", r, held[r].length, workers);
      require(host[r] >= 0 && host[r] < workers, "reduce %s is placed on worker %s of %s", r, host[r], workers);
      count[host[r]]++;
      for (int w = 0; w < workers; w++) {
        total[r] += held[r][w];
        if (w != host[r]) {
          out[w] += held[r][w];
        }
      }
      in[host[r]] += total[r] - held[r][host[r]];
    }
    List<Move> moves = new ArrayList<>();
    boolean[] moved = new boolean[held.length];
    while (true) {
      long[] load = new long[workers];
      for (int w = 0; w < workers; w++) {
        load[w] = Math.max(out[w], in[w]);
      }
      double enough = max(load, -1, -1) * (1 - minGain);
      long best = Long.MAX_VALUE;
      Move chosen = null;
      for (int r = 0; r < held.length; r++) {
        if (moved[r]) {
          continue;
        }
        int a = host[r];
        for (int t = 0; t < workers; t++) {
          if (t == a || count[t] >= maxReducesPerWorker) {
            continue;
          }
          long loadA = Math.max(out[a] + held[r][a], in[a] - (total[r] - held[r][a]));
          long loadT = Math.max(out[t] - held[r][t], in[t] + (total[r] - held[r][t]));
          long after = Math.max(Math.max(loadA, loadT), max(load, a, t));
          if (after <= enough && after < best) {
            best = after;
            chosen = new Move(r, a, t);
          }
        }
      }
      if (chosen == null) {
        return moves;
      }
      int r = chosen.reduceId();
      out[chosen.from()] += held[r][chosen.from()];
      in[chosen.from()] -= total[r] - held[r][chosen.from()];
      out[chosen.to()] -= held[r][chosen.to()];
      in[chosen.to()] += total[r] - held[r][chosen.to()];
      count[chosen.from()]--;
      count[chosen.to()]++;
      host[r] = chosen.to();
      moved[r] = true;
      moves.add(chosen);
    }
  }

  /** The largest load but those of workers {@code a} and {@code b}. */
  private static long max(long[] load, int a, int b) {
    long m = 0;
    for (int w = 0; w < load.length; w++) {
      if (w != a && w != b) {
        m = Math.max(m, load[w]);
      }
    }
    return m;
  }
}
