package org.scache.benchmarks.hadoop;

import java.util.Map;

/**
 * What the SCache workers did for one job, from their counters before and after it: bytes reduces read
 * from the worker on their own node and from other workers, bytes prefetched to the reduces' nodes,
 * and bytes spilled to disk.
 */
record WorkerTraffic(long localReadBytes, long remoteReadBytes, long prefetchedBytes, long spilledBytes) {
  static final WorkerTraffic NONE = new WorkerTraffic(0, 0, 0, 0);

  static WorkerTraffic between(Map<String, Long> before, Map<String, Long> after) {
    return new WorkerTraffic(delta(before, after, "read.local.bytes"), delta(before, after, "read.remote.bytes"),
        delta(before, after, "prefetch.bytes"), delta(before, after, "spill.bytes"));
  }

  private static long delta(Map<String, Long> before, Map<String, Long> after, String key) {
    return after.getOrDefault(key, 0L) - before.getOrDefault(key, 0L);
  }
}
