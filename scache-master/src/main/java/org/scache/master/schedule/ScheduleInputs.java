package org.scache.master.schedule;

import static org.scache.common.Checks.require;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.scache.master.predict.ReducePrediction;

/** Argument checks shared by the schedulers. */
final class ScheduleInputs {
  private ScheduleInputs() {}

  /** Checks the hosts are a non-empty list of distinct non-blank ids; returns id → position. */
  static Map<String, Integer> indexHosts(List<String> hosts) {
    Objects.requireNonNull(hosts, "hosts");
    require(!hosts.isEmpty(), "at least one host is needed to place reduces");
    Map<String, Integer> index = new HashMap<>(hosts.size() * 2);
    for (int h = 0; h < hosts.size(); h++) {
      String host = hosts.get(h);
      require(host != null && !host.isBlank(), "host %d must not be null or blank", h);
      require(index.put(host, h) == null, "host %s is given twice", host);
    }
    return index;
  }

  /** Checks the reduce list and its elements are not null (duplicates are found by HostPlacement). */
  static void checkReduces(List<ReducePrediction> reduces) {
    Objects.requireNonNull(reduces, "reduces");
    for (ReducePrediction reduce : reduces) {
      Objects.requireNonNull(reduce, "reduce prediction");
    }
  }

  /**
   * Checks the inputs, then deals the reduces to the hosts round-robin in the order {@code orderOf}
   * gives: it receives the reduce ids and returns positions into {@code reduces}. The framework-like
   * baselines differ only in that order.
   */
  static HostPlacement dealRoundRobin(int mapCount, List<String> hosts, List<ReducePrediction> reduces,
      java.util.function.UnaryOperator<int[]> orderOf) {
    require(mapCount >= 1, "map count must be at least 1 but was %d", mapCount);
    indexHosts(hosts);
    checkReduces(reduces);
    int n = reduces.size();
    int[] ids = new int[n];
    double[] sizes = new double[n];
    for (int i = 0; i < n; i++) {
      ids[i] = reduces.get(i).reduceId();
      sizes[i] = reduces.get(i).size();
    }
    int[] order = orderOf.apply(ids);
    int[] assigned = new int[n];
    for (int k = 0; k < n; k++) {
      assigned[order[k]] = k % hosts.size();
    }
    return new HostPlacement(hosts, ids, sizes, assigned);
  }
}
