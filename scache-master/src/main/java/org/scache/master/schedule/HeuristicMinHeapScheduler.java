package org.scache.master.schedule;

import static org.scache.common.Checks.require;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.scache.master.predict.ReducePrediction;

/**
 * Algorithm 1 of the paper, Heuristic MinHeap Scheduling: longest-processing-time placement of the
 * reduces on a min-heap of host loads, then a locality swap that moves a reduce to the host holding
 * its largest input share when that keeps host loads within {@code (1 + norm) × max}.
 *
 * <p>Deterministic choices where the pseudocode is silent:
 *
 * <ul>
 *   <li>Reduces of equal size are placed in ascending reduce id order.
 *   <li>Hosts of equal load are ordered by fewer placed reduces, then by their position in the
 *       host list; the reduce count keeps zero-size reduces spread instead of all landing on the
 *       first host.
 *   <li>{@code norm = (p − 1/m) / (1 − 1/m) / 10}, clamped to {@code [0, 0.1]}; with a single map
 *       ({@code m = 1}) all of a reduce's input comes from it, so {@code norm = 0.1}, the limit.
 *   <li>SWAP_TASKS, visiting reduces in LPT order, for reduce {@code r} on host {@code A} whose
 *       preferred host {@code H} is another host of the list: move {@code r} alone to {@code H} if
 *       {@code H}'s load stays within the bound; otherwise exchange it with the one reduce {@code q}
 *       on {@code H} that keeps both hosts within the bound and minimises the larger of the two new
 *       loads (ties: lower reduce id), never choosing a {@code q} that sits on its own preferred
 *       host; otherwise leave {@code r}. A host whose load shrinks may stay above the bound.
 *   <li>A preferred host that is not in the host list is ignored.
 * </ul>
 */
public final class HeuristicMinHeapScheduler implements ReduceScheduler {
  private final boolean localitySwap;

  /** Algorithm 1 with the locality swap. */
  public HeuristicMinHeapScheduler() {
    this(true);
  }

  /** Algorithm 1, with the locality swap only if {@code localitySwap}; without it, plain LPT. */
  public HeuristicMinHeapScheduler(boolean localitySwap) {
    this.localitySwap = localitySwap;
  }

  /**
   * The normalised locality share bounding the load growth a swap may cause.
   *
   * @param prob the reduce's largest share on one host, in {@code [0, 1]}
   * @param mapCount the number of map tasks {@code m}, at least 1
   */
  public static double norm(double prob, int mapCount) {
    require(mapCount >= 1, "map count must be at least 1 but was %d", mapCount);
    if (mapCount == 1) {
      return 0.1;
    }
    double uniform = 1.0 / mapCount;
    double norm = (prob - uniform) / (1 - uniform) / 10;
    return Math.max(0, Math.min(0.1, norm));
  }

  @Override
  public HostPlacement schedule(int mapCount, List<String> hosts, List<ReducePrediction> reduces) {
    return scheduleDetailed(mapCount, hosts, reduces).result();
  }

  /** Runs Algorithm 1 and returns the placement before and after the locality swap. */
  public MinHeapSchedule scheduleDetailed(int mapCount, List<String> hosts, List<ReducePrediction> reduces) {
    require(mapCount >= 1, "map count must be at least 1 but was %d", mapCount);
    Map<String, Integer> hostIndex = ScheduleInputs.indexHosts(hosts);
    ScheduleInputs.checkReduces(reduces);
    int n = reduces.size();
    int hostCount = hosts.size();
    int[] ids = new int[n];
    double[] sizes = new double[n];
    double[] probs = new double[n];
    int[] preferred = new int[n];
    for (int i = 0; i < n; i++) {
      ReducePrediction reduce = reduces.get(i);
      ids[i] = reduce.reduceId();
      sizes[i] = reduce.size();
      probs[i] = reduce.prob();
      preferred[i] = reduce.hostId().map(h -> hostIndex.getOrDefault(h, -1)).orElse(-1);
    }
    int[] order = lptOrder(ids, sizes);

    double[] loads = new double[hostCount];
    int[] counts = new int[hostCount];
    int[] assigned = new int[n];
    HostHeap heap = new HostHeap(loads, counts);
    for (int i : order) {
      int host = heap.top();
      assigned[i] = host;
      loads[host] += sizes[i];
      counts[host]++;
      heap.siftDownTop();
    }
    HostPlacement beforeSwap = new HostPlacement(hosts, ids, sizes, assigned);
    double max = 0;
    for (double load : loads) {
      max = Math.max(max, load);
    }
    if (!localitySwap) {
      return new MinHeapSchedule(beforeSwap, beforeSwap, List.of(), max);
    }

    HostMembers members = new HostMembers(hostCount, assigned);
    List<LocalitySwap> swaps = new ArrayList<>();
    for (int r : order) {
      int from = assigned[r];
      int to = preferred[r];
      if (to < 0 || to == from) {
        continue;
      }
      double upper = (1 + norm(probs[r], mapCount)) * max;
      OptionalInt returned;
      double aloneTo = loads[to] + sizes[r];
      if (aloneTo <= upper || aloneTo <= loads[to]) {
        returned = OptionalInt.empty();
      } else {
        int q = bestPartner(r, from, to, upper, members, loads, sizes, preferred, ids);
        if (q < 0) {
          continue;
        }
        move(q, to, from, members, assigned, loads, sizes);
        returned = OptionalInt.of(ids[q]);
      }
      move(r, from, to, members, assigned, loads, sizes);
      swaps.add(new LocalitySwap(ids[r], hosts.get(from), hosts.get(to), returned, upper));
    }
    HostPlacement result = new HostPlacement(hosts, ids, sizes, assigned);
    return new MinHeapSchedule(beforeSwap, result, swaps, max);
  }

  /** Indices of the reduces by size non-increasing, equal sizes by reduce id ascending. */
  private static int[] lptOrder(int[] ids, double[] sizes) {
    Integer[] boxed = new Integer[ids.length];
    for (int i = 0; i < boxed.length; i++) {
      boxed[i] = i;
    }
    Arrays.sort(
        boxed,
        Comparator.<Integer>comparingDouble(i -> -sizes[i]).thenComparingInt(i -> ids[i]));
    int[] order = new int[ids.length];
    for (int i = 0; i < order.length; i++) {
      order[i] = boxed[i];
    }
    return order;
  }

  /**
   * The reduce on {@code to} to exchange with {@code r}, or -1: among reduces not on their own
   * preferred host whose exchange keeps each growing host within {@code upper}, the one minimising
   * the larger new load, then the lower reduce id.
   */
  private static int bestPartner(
      int r,
      int from,
      int to,
      double upper,
      HostMembers members,
      double[] loads,
      double[] sizes,
      int[] preferred,
      int[] ids) {
    int best = -1;
    double bestPeak = Double.POSITIVE_INFINITY;
    for (int k = 0, size = members.size(to); k < size; k++) {
      int q = members.get(to, k);
      if (preferred[q] == to) {
        continue;
      }
      double newTo = loads[to] + sizes[r] - sizes[q];
      double newFrom = loads[from] - sizes[r] + sizes[q];
      boolean toOk = newTo <= upper || newTo <= loads[to];
      boolean fromOk = newFrom <= upper || newFrom <= loads[from];
      if (!toOk || !fromOk) {
        continue;
      }
      double peak = Math.max(newTo, newFrom);
      if (peak < bestPeak || (peak == bestPeak && ids[q] < ids[best])) {
        best = q;
        bestPeak = peak;
      }
    }
    return best;
  }

  private static void move(
      int reduce, int from, int to, HostMembers members, int[] assigned, double[] loads, double[] sizes) {
    members.remove(from, reduce);
    members.add(to, reduce);
    assigned[reduce] = to;
    loads[from] -= sizes[reduce];
    loads[to] += sizes[reduce];
  }

  /** A binary min-heap of host indices by (load, reduce count, host index). */
  private static final class HostHeap {
    private final int[] heap;
    private final double[] loads;
    private final int[] counts;

    HostHeap(double[] loads, int[] counts) {
      this.loads = loads;
      this.counts = counts;
      this.heap = new int[loads.length];
      for (int h = 0; h < heap.length; h++) {
        heap[h] = h; // all loads are zero: index order is a valid heap
      }
    }

    int top() {
      return heap[0];
    }

    void siftDownTop() {
      int pos = 0;
      int host = heap[0];
      int half = heap.length >>> 1;
      while (pos < half) {
        int child = 2 * pos + 1;
        int right = child + 1;
        if (right < heap.length && less(heap[right], heap[child])) {
          child = right;
        }
        if (!less(heap[child], host)) {
          break;
        }
        heap[pos] = heap[child];
        pos = child;
      }
      heap[pos] = host;
    }

    private boolean less(int a, int b) {
      if (loads[a] != loads[b]) {
        return loads[a] < loads[b];
      }
      if (counts[a] != counts[b]) {
        return counts[a] < counts[b];
      }
      return a < b;
    }
  }

  /** The reduces on each host, with O(1) add and remove (order within a host is not kept). */
  private static final class HostMembers {
    private final int[][] members;
    private final int[] sizes;
    private final int[] position;

    HostMembers(int hostCount, int[] assigned) {
      sizes = new int[hostCount];
      for (int host : assigned) {
        sizes[host]++;
      }
      members = new int[hostCount][];
      for (int h = 0; h < hostCount; h++) {
        members[h] = new int[Math.max(4, sizes[h])];
      }
      Arrays.fill(sizes, 0);
      position = new int[assigned.length];
      for (int r = 0; r < assigned.length; r++) {
        add(assigned[r], r);
      }
    }

    int size(int host) {
      return sizes[host];
    }

    int get(int host, int k) {
      return members[host][k];
    }

    void add(int host, int reduce) {
      if (sizes[host] == members[host].length) {
        members[host] = Arrays.copyOf(members[host], 2 * members[host].length);
      }
      position[reduce] = sizes[host];
      members[host][sizes[host]++] = reduce;
    }

    void remove(int host, int reduce) {
      int pos = position[reduce];
      int last = members[host][--sizes[host]];
      members[host][pos] = last;
      position[last] = pos;
    }
  }
}
