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

  /** Checks the reduce list and its elements are not null (duplicates are found by ScheduleResult). */
  static void checkReduces(List<ReducePrediction> reduces) {
    Objects.requireNonNull(reduces, "reduces");
    for (ReducePrediction reduce : reduces) {
      Objects.requireNonNull(reduce, "reduce prediction");
    }
  }
}
