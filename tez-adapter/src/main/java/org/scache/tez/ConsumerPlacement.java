package org.scache.tez;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.scache.common.WorkerInfo;
import org.scache.common.shuffle.ReduceAssignment;
import org.scache.common.shuffle.ShufflePlacement;

/**
 * Which worker a consumer task belongs on: the pre-schedule places each reduce partition of each
 * input shuffle on a worker; a task that reads several partitions (Tez merged partitions when it
 * lowered the parallelism) or several shuffles (a join) goes where most of them are placed. Ties go
 * to the worker of the shuffle listed last, then to the smaller worker id. The vertex manager and
 * the consumer task use this same rule, so the task can tell whether it runs where it was placed.
 */
final class ConsumerPlacement {
  private ConsumerPlacement() {}

  static Optional<WorkerInfo> workerFor(Collection<ShufflePlacement> schedules, Collection<Integer> partitions) {
    Map<String, Integer> votes = new HashMap<>();
    Map<String, WorkerInfo> workers = new HashMap<>();
    String last = null;
    for (ShufflePlacement schedule : schedules) {
      for (ReduceAssignment a : schedule.assignments()) {
        if (partitions.contains(a.reduceId())) {
          votes.merge(a.worker().workerId(), 1, Integer::sum);
          workers.put(a.worker().workerId(), a.worker());
          last = a.worker().workerId();
        }
      }
    }
    String best = null;
    for (Map.Entry<String, Integer> e : votes.entrySet()) {
      if (best == null || e.getValue() > votes.get(best)
          || (e.getValue().equals(votes.get(best)) && prefer(e.getKey(), best, last))) {
        best = e.getKey();
      }
    }
    return Optional.ofNullable(best).map(workers::get);
  }

  private static boolean prefer(String candidate, String best, String last) {
    if (candidate.equals(last)) {
      return true;
    }
    if (best.equals(last)) {
      return false;
    }
    return candidate.compareTo(best) < 0;
  }
}
