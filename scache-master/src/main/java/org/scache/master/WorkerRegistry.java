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
  record LiveWorker(WorkerInfo info, long reservedBytes, long usedBytes, long lastSeenMillis) {}

  private final Clock clock;
  private final Duration expiry;
  private final Map<String, LiveWorker> workers = new HashMap<>();

  WorkerRegistry(Clock clock, Duration expiry) {
    this.clock = clock;
    this.expiry = expiry;
  }

  synchronized void register(WorkerInfo info, long reserved, long used) {
    workers.put(info.workerId(), new LiveWorker(info, reserved, used, clock.millis()));
  }

  /** Records a heartbeat; false when the worker is not (or no longer) registered. */
  synchronized boolean heartbeat(String workerId, long reserved, long used) {
    LiveWorker w = workers.get(workerId);
    if (w == null) {
      return false;
    }
    workers.put(workerId, new LiveWorker(w.info(), reserved, used, clock.millis()));
    return true;
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
