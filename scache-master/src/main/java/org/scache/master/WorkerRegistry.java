package org.scache.master;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.scache.common.Clock;
import org.scache.common.WorkerInfo;

/** The workers the master knows, with their memory and last heartbeat; silent workers expire. */
final class WorkerRegistry {
  /** A live worker and what it last said of itself. */
  record LiveWorker(WorkerInfo info, long reservedBytes, long usedBytes, long lastSeenMillis, long spilledBytes,
      long spillFileBytes) {
    LiveWorker seen(long reserved, long used, long now) {
      return new LiveWorker(info, reserved, used, now, spilledBytes, spillFileBytes);
    }
  }

  private final Clock clock;
  private final Duration expiry;
  private final Map<String, LiveWorker> workers = new HashMap<>();

  WorkerRegistry(Clock clock, Duration expiry) {
    this.clock = clock;
    this.expiry = expiry;
  }

  synchronized void register(WorkerInfo info, long reserved, long used) {
    workers.put(info.workerId(), new LiveWorker(info, reserved, used, clock.millis(), 0, 0));
  }

  /** Records a heartbeat; false when the worker is not (or no longer) registered. */
  synchronized boolean heartbeat(String workerId, long reserved, long used) {
    LiveWorker w = workers.get(workerId);
    if (w == null) {
      return false;
    }
    workers.put(workerId, w.seen(reserved, used, clock.millis()));
    return true;
  }

  /** Records what a worker holds on disk, from its activity report. */
  synchronized void spill(String workerId, long spilledBytes, long spillFileBytes) {
    workers.computeIfPresent(workerId, (id, w) -> new LiveWorker(w.info(), w.reservedBytes(), w.usedBytes(),
        w.lastSeenMillis(), spilledBytes, spillFileBytes));
  }

  /** Every live worker with what it last said of itself, ordered by id. */
  synchronized List<LiveWorker> snapshot() {
    return workers.values().stream().sorted(Comparator.comparing(w -> w.info().workerId())).toList();
  }

  /** Drops workers silent for longer than the expiry; returns them. */
  synchronized List<WorkerInfo> expire() {
    long cutoff = clock.millis() - expiry.toMillis();
    List<WorkerInfo> gone = new ArrayList<>();
    workers.values().removeIf(w -> {
      if (w.lastSeenMillis() < cutoff) {
        gone.add(w.info());
        return true;
      }
      return false;
    });
    return gone;
  }

  synchronized Optional<WorkerInfo> get(String workerId) {
    return Optional.ofNullable(workers.get(workerId)).map(LiveWorker::info);
  }

  synchronized boolean isLive(String workerId) {
    return workers.containsKey(workerId);
  }

  /** Live workers, ordered by id. */
  synchronized List<WorkerInfo> live() {
    return workers.values().stream().map(LiveWorker::info).sorted(Comparator.comparing(WorkerInfo::workerId))
        .toList();
  }
}
