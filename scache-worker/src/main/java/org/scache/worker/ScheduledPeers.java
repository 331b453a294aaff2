package org.scache.worker;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.scache.common.ShuffleKey;
import org.scache.common.WorkerInfo;
import org.scache.common.shuffle.ReduceAssignment;
import org.scache.common.shuffle.ReduceMove;
import org.scache.common.shuffle.ShufflePlacement;

/**
 * The workers each placed shuffle names, as the master's placements announced them: where each reduce's
 * input is prefetched to (its placed worker, or the worker a re-shuffle moved it to), and every worker the
 * placement involves. When the master cannot be reached, a block that is not held here is looked for on
 * these workers instead, the reduce's own worker first. Thread-safe.
 */
final class ScheduledPeers {
  private final Map<ShuffleKey, Map<Integer, WorkerInfo>> reduceWorkers = new HashMap<>();
  private final Map<ShuffleKey, Map<String, WorkerInfo>> workers = new HashMap<>();

  synchronized void scheduled(ShufflePlacement s, List<ReduceMove> moves) {
    ShuffleKey key = new ShuffleKey(s.appId(), s.shuffleId());
    Map<Integer, WorkerInfo> byReduce = reduceWorkers.computeIfAbsent(key, k -> new HashMap<>());
    Map<String, WorkerInfo> all = workers.computeIfAbsent(key, k -> new LinkedHashMap<>());
    for (ReduceAssignment a : s.assignments()) {
      byReduce.put(a.reduceId(), a.worker());
      all.put(a.worker().workerId(), a.worker());
    }
    for (ReduceMove move : moves) {
      ShuffleKey moved = new ShuffleKey(s.appId(), move.shuffleId());
      reduceWorkers.computeIfAbsent(moved, k -> new HashMap<>()).put(move.reduceId(), move.to());
      workers.computeIfAbsent(moved, k -> new LinkedHashMap<>()).put(move.to().workerId(), move.to());
    }
  }

  /** The workers to ask for a block of {@code reduceId}, the reduce's own first; never {@code self}. */
  synchronized List<WorkerInfo> candidates(ShuffleKey shuffle, int reduceId, String self) {
    List<WorkerInfo> out = new ArrayList<>();
    WorkerInfo own = reduceWorkers.getOrDefault(shuffle, Map.of()).get(reduceId);
    if (own != null && !own.workerId().equals(self)) {
      out.add(own);
    }
    for (WorkerInfo w : workers.getOrDefault(shuffle, Map.of()).values()) {
      if (!w.workerId().equals(self) && !out.contains(w)) {
        out.add(w);
      }
    }
    return out;
  }

  /** Whether a placement of {@code shuffle} reached this worker. */
  synchronized boolean isPlaced(ShuffleKey shuffle) {
    return reduceWorkers.containsKey(shuffle);
  }

  synchronized void forgetShuffle(ShuffleKey shuffle) {
    reduceWorkers.remove(shuffle);
    workers.remove(shuffle);
  }

  synchronized void forgetApplication(String appId) {
    reduceWorkers.keySet().removeIf(k -> k.appId().equals(appId));
    workers.keySet().removeIf(k -> k.appId().equals(appId));
  }
}
