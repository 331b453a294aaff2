package org.scache.master;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.scache.common.WorkerInfo;
import org.scache.common.protocol.BlockRoom;

/**
 * How many blocks the live workers can still take: each worker's limits, as it reported them after it
 * registered, and its block count from its last heartbeat. What a job's application master or driver asks
 * before it sends a shuffle through SCache: a shuffle of M maps and R reduces puts M × R blocks, which
 * the cluster must be able to hold for one owner. The blocks the shuffles registered already have still to put are
 * booked: the room answered is what is left after them, so that a job checked while another's maps run does not
 * count on the same room. Thread-safe.
 */
final class ClusterBlockRoom {
  private record Limits(long maxBlocks, long maxPerOwner, long held) {}

  private final Map<String, Limits> byWorker = new HashMap<>();

  /** A worker's limits, reported after each registration. */
  synchronized void limits(String workerId, long maxBlocks, long maxPerOwner) {
    long held = byWorker.containsKey(workerId) ? byWorker.get(workerId).held() : 0;
    byWorker.put(workerId, new Limits(maxBlocks, maxPerOwner, held));
  }

  /** What a worker's limit counts held (blocks, or its units of heap), from its heartbeat. */
  synchronized void held(String workerId, long blocks) {
    byWorker.computeIfPresent(workerId, (id, l) -> new Limits(l.maxBlocks(), l.maxPerOwner(), blocks));
  }

  synchronized void forget(String workerId) {
    byWorker.remove(workerId);
  }

  /**
   * The room of the {@code live} workers, for one owner and in all, less the {@code toCome} blocks registered
   * shuffles have still to put.
   */
  synchronized BlockRoom of(List<WorkerInfo> live, long toCome) {
    long forOne = 0;
    long inAll = 0;
    int known = 0;
    for (WorkerInfo w : live) {
      Limits l = byWorker.get(w.workerId());
      if (l == null) {
        continue;
      }
      known++;
      long free = Math.max(0, l.maxBlocks() - l.held());
      inAll = saturated(inAll, free);
      forOne = saturated(forOne, Math.min(free, l.maxPerOwner()));
    }
    long leftInAll = Math.max(0, inAll - Math.max(0, toCome));
    return new BlockRoom(Math.min(forOne, leftInAll), leftInAll, known, live.size() - known, Math.max(0, toCome));
  }

  /** {@code a + b}, at most {@link Long#MAX_VALUE} (a worker without limits reports that). */
  static long saturated(long a, long b) {
    long sum = a + b;
    return sum < 0 ? Long.MAX_VALUE : sum;
  }
}
