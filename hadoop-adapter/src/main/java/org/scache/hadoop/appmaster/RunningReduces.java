package org.scache.hadoop.appmaster;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.scache.common.WorkerInfo;

/**
 * The job's reduce containers that are running, by the worker of their node, when each node last freed
 * one, and how long the finished ones ran: from these, when a node busy with the job's own reduces frees
 * (or freed) a container. A reduce placed on a node that runs an earlier round of the job's reduces waits
 * for that node when it will free sooner than reading the reduce's input from elsewhere would take.
 *
 * <p>Called from the container allocator's thread only.
 */
final class RunningReduces {
  private record Run(WorkerInfo worker, long startedAt) {}

  private final Map<Object, Run> running = new HashMap<>();
  private final List<Long> finishedRunMillis = new ArrayList<>();
  private final Map<WorkerInfo, Long> lastEndedAt = new HashMap<>();

  /** A reduce container {@code container} started on {@code worker}'s node at {@code now}. */
  void started(Object container, WorkerInfo worker, long now) {
    running.put(container, new Run(worker, now));
  }

  /** Container {@code container} ended at {@code now}; containers not started as reduces are ignored. */
  void ended(Object container, long now) {
    Run run = running.remove(container);
    if (run != null) {
      finishedRunMillis.add(now - run.startedAt());
      lastEndedAt.put(run.worker(), now);
    }
  }

  /**
   * When {@code worker}'s node frees a container: the later of when one of the job's reduces last ended
   * there (the container YARN is about to hand out again) and when its earliest running reduce should end
   * (its start plus the median run of the job's finished reduces). Empty when no reduce of the job has
   * ended on that node and it runs none, or none has finished anywhere (nothing to expect from).
   */
  OptionalLong expectedFreeAt(WorkerInfo worker) {
    if (finishedRunMillis.isEmpty()) {
      return OptionalLong.empty();
    }
    long freeAt = lastEndedAt.getOrDefault(worker, Long.MIN_VALUE);
    OptionalLong earliest = running.values().stream().filter(r -> r.worker().equals(worker))
        .mapToLong(Run::startedAt).min();
    if (earliest.isPresent()) {
      List<Long> sorted = new ArrayList<>(finishedRunMillis);
      sorted.sort(null);
      freeAt = Math.max(freeAt, earliest.getAsLong() + sorted.get(sorted.size() / 2));
    }
    return freeAt == Long.MIN_VALUE ? OptionalLong.empty() : OptionalLong.of(freeAt);
  }
}
