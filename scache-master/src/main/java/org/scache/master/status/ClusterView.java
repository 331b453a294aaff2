package org.scache.master.status;

import java.util.List;

/**
 * The cluster as the master sees it at one moment: what the master is (the only one, the leader, or a
 * standby), live workers, applications and shuffles. What the
 * status page and {@code bin/scache status} show; built under the master's locks, rendered outside them.
 */
public record ClusterView(long nowMillis, String role, List<WorkerView> workers, int applications,
    List<ShuffleSummary> shuffles) {
  public ClusterView {
    workers = List.copyOf(workers);
    shuffles = List.copyOf(shuffles);
  }

  /** A live worker and what it last reported. */
  public record WorkerView(String workerId, String address, long reservedBytes, long usedBytes, long spilledBytes,
      long spillFileBytes, long lastSeenAgoMillis) {}

  /** One shuffle in a line. */
  public record ShuffleSummary(String appId, int shuffleId, int maps, int finishedMaps, int reduces, String state,
      String policy, String predictor) {}
}
