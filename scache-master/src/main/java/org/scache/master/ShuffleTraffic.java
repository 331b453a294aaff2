package org.scache.master;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import org.scache.common.shuffle.ShuffleActivity;

/**
 * What the workers reported doing for one shuffle: bytes prefetched while its maps still ran and
 * after, bytes its reduces read locally and fetched at read time, and where each reduce read its input.
 * A report is counted as during the map stage when it reaches the master before the last map finished,
 * so the split is as fine as the workers' heartbeat interval.
 */
final class ShuffleTraffic {
  /** Where a reduce read its input; the latest read when it was read more than once. */
  record ReduceRun(String workerId, boolean placementKnown, long localBytes, long remoteBytes, int reads) {}

  private long prefetchedDuringMaps;
  private long prefetchedAfterMaps;
  private long localRead;
  private long remoteRead;
  private final Map<Integer, ReduceRun> runs = new TreeMap<>();

  void add(String workerId, ShuffleActivity a, boolean mapsDone) {
    if (mapsDone) {
      prefetchedAfterMaps += a.prefetchedBytes();
    } else {
      prefetchedDuringMaps += a.prefetchedBytes();
    }
    localRead += a.localReadBytes();
    remoteRead += a.remoteReadBytes();
    for (ShuffleActivity.ReduceRead r : a.reads()) {
      ReduceRun before = runs.get(r.reduceId());
      runs.put(r.reduceId(), new ReduceRun(workerId, r.placementKnown(), r.localBytes(), r.remoteBytes(),
          before == null ? 1 : before.reads() + 1));
    }
  }

  long prefetchedDuringMaps() {
    return prefetchedDuringMaps;
  }

  long prefetchedAfterMaps() {
    return prefetchedAfterMaps;
  }

  long localRead() {
    return localRead;
  }

  long remoteRead() {
    return remoteRead;
  }

  Map<Integer, ReduceRun> runs() {
    return Collections.unmodifiableMap(runs);
  }
}
