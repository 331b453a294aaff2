package org.scache.master.schedule;

import static org.scache.common.Checks.require;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.scache.master.predict.ReducePrediction;

/**
 * Places consecutive reduces together, for a framework one of whose reduce tasks may read a range of
 * consecutive reduces (Spark's adaptive execution coalesces small partitions into such ranges after the
 * maps ran, too late for a placement made before them): the reduces, in id order, are cut into one run
 * per host of about equal predicted bytes, and the runs go to the hosts so that the most bytes are
 * where they already are: each reduce's largest share on its holder (eq. 3) and, for a later shuffle of
 * a stage (Algorithm 2), the bytes earlier shuffles placed for it on their host, so that a join's two
 * sides keep the same runs unless moving one saves more than it costs. A coalesced range then lies on
 * one host, or on two where it crosses a cut, and the task placed on that host reads it from memory
 * there; Algorithm 1 would spread any range over every host. The runs' bytes differ by at most one
 * reduce's. Runs are matched to hosts exactly up to {@value #EXACT_MATCH_HOSTS} hosts, greedily beyond.
 */
public final class ContiguousRangeScheduler implements ReduceScheduler {
  static final int EXACT_MATCH_HOSTS = 8;

  @Override
  public HostPlacement schedule(int mapCount, List<String> hosts, List<ReducePrediction> reduces) {
    return schedule(mapCount, hosts, reduces, Map.of());
  }

  /**
   * Places {@code reduces}, this shuffle's predictions, together with what earlier shuffles of the stage
   * placed for each reduce ({@code earlier}, by reduce id): the runs are cut by the sum of both sizes.
   */
  public HostPlacement schedule(int mapCount, List<String> hosts, List<ReducePrediction> reduces,
      Map<Integer, AccumulatedReduce> earlier) {
    require(mapCount >= 1, "map count must be at least 1 but was %d", mapCount);
    Map<String, Integer> index = ScheduleInputs.indexHosts(hosts);
    ScheduleInputs.checkReduces(reduces);
    List<ReducePrediction> byId = new ArrayList<>(reduces);
    byId.sort(Comparator.comparingInt(ReducePrediction::reduceId));
    int runs = hosts.size();
    int n = byId.size();
    double[] sizes = new double[n];
    double total = 0;
    for (int i = 0; i < n; i++) {
      AccumulatedReduce e = earlier.get(byId.get(i).reduceId());
      sizes[i] = byId.get(i).size() + (e == null ? 0 : e.size());
      total += sizes[i];
    }
    int[] runOf = new int[n];
    double[][] held = new double[runs][runs];
    double before = 0;
    for (int i = 0; i < n; i++) {
      ReducePrediction r = byId.get(i);
      // the run whose share of all bytes holds the reduce's middle byte; by count when nothing is predicted
      double position = total > 0 ? (before + sizes[i] / 2) / total : (i + 0.5) / n;
      runOf[i] = Math.min(runs - 1, (int) (position * runs));
      before += sizes[i];
      Integer holder = r.hostId().map(index::get).orElse(null);
      if (holder != null) {
        held[runOf[i]][holder] += r.size() * r.prob();
      }
      AccumulatedReduce e = earlier.get(r.reduceId());
      Integer placedBefore = e == null ? null : index.get(e.assignedHost());
      if (placedBefore != null) {
        held[runOf[i]][placedBefore] += e.size();
      }
    }
    int[] hostOfRun = runs <= EXACT_MATCH_HOSTS ? bestMatch(held) : greedyMatch(held);
    int[] ids = new int[n];
    int[] assigned = new int[n];
    for (int i = 0; i < n; i++) {
      ids[i] = byId.get(i).reduceId();
      assigned[i] = hostOfRun[runOf[i]];
    }
    return new HostPlacement(hosts, ids, sizes, assigned);
  }

  /** A host for every run, each host once,
      with the most bytes held where they are placed; the first such in host order. */
  private static int[] bestMatch(double[][] held) {
    int runs = held.length;
    int[] best = new int[runs];
    double[] bestBytes = {-1};
    search(held, 0, new int[runs], new boolean[runs], 0, best, bestBytes);
    return best;
  }

  private static void search(double[][] held, int run, int[] hostOfRun, boolean[] taken, double bytes, int[] best,
      double[] bestBytes) {
    if (run == held.length) {
      if (bytes > bestBytes[0] + 1e-9) {
        bestBytes[0] = bytes;
        System.arraycopy(hostOfRun, 0, best, 0, best.length);
      }
      return;
    }
    for (int host = 0; host < held.length; host++) {
      if (!taken[host]) {
        taken[host] = true;
        hostOfRun[run] = host;
        search(held, run + 1, hostOfRun, taken, bytes + held[run][host], best, bestBytes);
        taken[host] = false;
      }
    }
  }

  /**
   * A host for every run, each host once: the (run, host) pairs by the bytes the host holds of the run,
   * most first, taken while both are free; then the runs left take the hosts left in order.
   */
  private static int[] greedyMatch(double[][] held) {
    int runs = held.length;
    List<int[]> pairs = new ArrayList<>();
    for (int run = 0; run < runs; run++) {
      for (int host = 0; host < runs; host++) {
        if (held[run][host] > 0) {
          pairs.add(new int[] {run, host});
        }
      }
    }
    pairs.sort((a, b) -> Double.compare(held[b[0]][b[1]], held[a[0]][a[1]]));
    int[] hostOfRun = new int[runs];
    java.util.Arrays.fill(hostOfRun, -1);
    boolean[] taken = new boolean[runs];
    for (int[] p : pairs) {
      if (hostOfRun[p[0]] < 0 && !taken[p[1]]) {
        hostOfRun[p[0]] = p[1];
        taken[p[1]] = true;
      }
    }
    int nextFree = 0;
    for (int run = 0; run < runs; run++) {
      if (hostOfRun[run] < 0) {
        while (taken[nextFree]) {
          nextFree++;
        }
        hostOfRun[run] = nextFree;
        taken[nextFree] = true;
      }
    }
    return hostOfRun;
  }
}
