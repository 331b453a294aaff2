package org.scache.hadoop.appmaster;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
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
   * The moments {@code worker}'s node frees, or freed, a container of the job: when each of its running
   * reduces should end (its start plus the median run of the job's finished reduces) and when one of the
   * job's reduces last ended there (a container YARN is about to hand out again). None before any reduce
   * of the job has finished (nothing to expect from).
   */
  LongStream freeTimes(WorkerInfo worker) {
    if (finishedRunMillis.isEmpty()) {
      return LongStream.empty();
    }
    long medianRun = Medians.of(finishedRunMillis);
    LongStream ends = running.values().stream().filter(r -> r.worker().equals(worker))
        .mapToLong(r -> r.startedAt() + medianRun);
    Long ended = lastEndedAt.get(worker);
    return ended == null ? ends : LongStream.concat(ends, LongStream.of(ended));
  }
}
