package org.scache.master.schedule;

import static org.scache.common.Checks.require;

import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.scache.master.predict.ReducePrediction;

/**
 * A reduce-to-host placement: which host each reduce runs on, each host's load (sum of its reduces'
 * predicted sizes), and in which round each reduce runs given a number of slots per host.
 *
 * <p>Rounds: the reduces placed on one host are ordered by reduce id ascending, since frameworks
 * launch lower task ids first, and the reduce at position {@code k} of its host runs in round
 * {@code k / slotsPerHost}. Immutable.
 */
public final class HostPlacement {
  private final List<String> hosts;
  private final int[] reduceIds;
  private final double[] sizes;
  private final int[] hostIndex;
  private final int[] positionOnHost;
  private final double[] loads;
  private final int[][] reducesByHost;

  /**
   * Builds a result from parallel arrays in any reduce order; the arrays are not kept.
   *
   * @throws IllegalArgumentException on a duplicate reduce id
   */
  HostPlacement(List<String> hosts, int[] reduceIds, double[] sizes, int[] hostIndex) {
    this.hosts = List.copyOf(hosts);
    int n = reduceIds.length;
    long[] keys = new long[n];
    for (int i = 0; i < n; i++) {
      keys[i] = ((long) reduceIds[i] << 32) | i;
    }
    Arrays.sort(keys);
    this.reduceIds = new int[n];
    this.sizes = new double[n];
    this.hostIndex = new int[n];
    this.positionOnHost = new int[n];
    this.loads = new double[hosts.size()];
    int[] counts = new int[hosts.size()];
    for (int k = 0; k < n; k++) {
      int i = (int) keys[k];
      this.reduceIds[k] = reduceIds[i];
      require(k == 0 || this.reduceIds[k - 1] != reduceIds[i], "reduce %d is given twice", reduceIds[i]);
      this.sizes[k] = sizes[i];
      this.hostIndex[k] = hostIndex[i];
      this.positionOnHost[k] = counts[hostIndex[i]]++;
      this.loads[hostIndex[i]] += sizes[i];
    }
    this.reducesByHost = new int[hosts.size()][];
    for (int h = 0; h < counts.length; h++) {
      reducesByHost[h] = new int[counts[h]];
    }
    for (int k = 0; k < n; k++) {
      reducesByHost[this.hostIndex[k]][positionOnHost[k]] = this.reduceIds[k];
    }
  }

  /**
   * A result for an externally decided placement.
   *
   * @param hosts the hosts, in order
   * @param reduces the reduces with their predicted sizes
   * @param assignment the host of every reduce id in {@code reduces}, each one of {@code hosts}
   */
  public static HostPlacement of(
      List<String> hosts, List<ReducePrediction> reduces, Map<Integer, String> assignment) {
    Map<String, Integer> index = ScheduleInputs.indexHosts(hosts);
    ScheduleInputs.checkReduces(reduces);
    Objects.requireNonNull(assignment, "assignment");
    require(
        assignment.size() == reduces.size(),
        "assignment covers %d reduces but %d are given",
        assignment.size(),
        reduces.size());
    int n = reduces.size();
    int[] ids = new int[n];
    double[] sizes = new double[n];
    int[] assigned = new int[n];
    for (int i = 0; i < n; i++) {
      ReducePrediction reduce = reduces.get(i);
      ids[i] = reduce.reduceId();
      sizes[i] = reduce.size();
      String host = assignment.get(reduce.reduceId());
      require(host != null, "reduce %d has no host in the assignment", reduce.reduceId());
      Integer h = index.get(host);
      require(h != null, "reduce %d is assigned to unknown host %s", reduce.reduceId(), host);
      assigned[i] = h;
    }
    return new HostPlacement(hosts, ids, sizes, assigned);
  }

  /** The hosts, in the order given to the scheduler. */
  public List<String> hosts() {
    return hosts;
  }

  /** The number of reduces placed. */
  public int reduceCount() {
    return reduceIds.length;
  }

  /** The placed reduce ids, ascending. */
  public List<Integer> reduceIds() {
    return Arrays.stream(reduceIds).boxed().toList();
  }

  /** The host reduce {@code reduceId} is placed on. */
  public String hostOf(int reduceId) {
    return hosts.get(hostIndex[indexOf(reduceId)]);
  }

  /** The predicted size of reduce {@code reduceId}. */
  public double sizeOf(int reduceId) {
    return sizes[indexOf(reduceId)];
  }

  /** Every reduce id mapped to its host, ordered by reduce id. */
  public Map<Integer, String> assignment() {
    Map<Integer, String> out = new TreeMap<>();
    for (int k = 0; k < reduceIds.length; k++) {
      out.put(reduceIds[k], hosts.get(hostIndex[k]));
    }
    return Collections.unmodifiableMap(out);
  }

  /** The reduce ids placed on {@code host}, ascending (their launch order). */
  public List<Integer> reducesOn(String host) {
    return Arrays.stream(reducesByHost[hostIndexOf(host)]).boxed().toList();
  }

  /** The sum of the predicted sizes of the reduces placed on {@code host}. */
  public double loadOf(String host) {
    return loads[hostIndexOf(host)];
  }

  /** Every host's load, in host order. */
  public Map<String, Double> loads() {
    Map<String, Double> out = new LinkedHashMap<>();
    for (int h = 0; h < hosts.size(); h++) {
      out.put(hosts.get(h), loads[h]);
    }
    return Collections.unmodifiableMap(out);
  }

  /** The largest host load: the makespan at unit speed with one slot per host. */
  public double maxLoad() {
    double max = 0;
    for (double load : loads) {
      max = Math.max(max, load);
    }
    return max;
  }

  /** The 0-based round reduce {@code reduceId} runs in on its host with {@code slotsPerHost} slots. */
  public int roundOf(int reduceId, int slotsPerHost) {
    require(slotsPerHost >= 1, "slots per host must be at least 1 but was %d", slotsPerHost);
    return positionOnHost[indexOf(reduceId)] / slotsPerHost;
  }

  /** The number of rounds the busiest host (by reduce count) needs with {@code slotsPerHost} slots. */
  public int rounds(int slotsPerHost) {
    require(slotsPerHost >= 1, "slots per host must be at least 1 but was %d", slotsPerHost);
    int rounds = 0;
    for (int[] reduces : reducesByHost) {
      rounds = Math.max(rounds, (reduces.length + slotsPerHost - 1) / slotsPerHost);
    }
    return rounds;
  }

  private int indexOf(int reduceId) {
    int k = Arrays.binarySearch(reduceIds, reduceId);
    require(k >= 0, "reduce %d is not in this schedule", reduceId);
    return k;
  }

  private int hostIndexOf(String host) {
    Objects.requireNonNull(host, "host");
    int h = hosts.indexOf(host);
    require(h >= 0, "host %s is not in this schedule", host);
    return h;
  }

  @Override
  public String toString() {
    Map<String, Integer> counts = new HashMap<>();
    for (int h = 0; h < hosts.size(); h++) {
      counts.put(hosts.get(h), reducesByHost[h].length);
    }
    return "HostPlacement[reduces=" + reduceIds.length + ", hosts=" + hosts.size() + ", maxLoad=" + maxLoad()
        + ", reducesPerHost=" + counts + "]";
  }
}
