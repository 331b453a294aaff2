package org.scache.hadoop.appmaster;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.scache.client.ScacheClient;
import org.scache.common.Clock;
import org.scache.common.DaemonThreads;
import org.scache.common.ScacheException;
import org.scache.common.protocol.Status;
import org.scache.common.shuffle.ShufflePlacement;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks the master, in the background, where the reduces of a shuffle are placed, until they are.
 * While the master answers "not yet" it keeps asking; once the master has not answered at all for
 * {@code giveUpAfter} it gives up, and the job's reduces are then requested without placement.
 */
final class ScheduleWatcher implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ScheduleWatcher.class);

  private final ScacheClient client;
  private final int shuffleId;
  private final Clock clock;
  private final long giveUpAfterMillis;
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
      DaemonThreads.named("scache-schedule-watcher"));
  private volatile ScheduledFuture<?> polling;
  private volatile ShufflePlacement schedule;
  private volatile String gaveUp;
  private long unansweredSince = -1;

  ScheduleWatcher(ScacheClient client, int shuffleId, Clock clock, Duration giveUpAfter) {
    this.client = client;
    this.shuffleId = shuffleId;
    this.clock = clock;
    this.giveUpAfterMillis = giveUpAfter.toMillis();
  }

  void start(Duration interval) {
    polling = timer.scheduleWithFixedDelay(this::poll, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Stops waiting: no placement will come, for {@code reason}. */
  void giveUp(String reason) {
    gaveUp = reason;
  }

  /** The placement, once the master has made it. */
  Optional<ShufflePlacement> schedule() {
    return Optional.ofNullable(schedule);
  }

  /** Why no placement will come, once the watcher has given up. */
  Optional<String> gaveUp() {
    return Optional.ofNullable(gaveUp);
  }

  void poll() {
    try {
      schedule = client.getScheduleResult(shuffleId);
      LOG.info("{}/shuffle_{}: the master placed {} reduces ({})", client.appId(), shuffleId,
          schedule.assignments().size(), schedule.policy());
      stopPolling();
    } catch (ScacheException e) {
      if (e.status() == Status.NOT_READY) {
        unansweredSince = -1;
        return;
      }
      long now = clock.millis();
      if (unansweredSince < 0) {
        unansweredSince = now;
      }
      if (now - unansweredSince >= giveUpAfterMillis || !e.status().isTransient()) {
        gaveUp = e.getMessage();
        LOG.warn("{}/shuffle_{}: no placement from the master ({}); reduces run wherever YARN puts them",
            client.appId(), shuffleId, gaveUp);
        stopPolling();
      }
    } catch (RuntimeException e) {
      gaveUp = e.toString();
      LOG.warn("{}/shuffle_{}: no placement ({}); reduces run wherever YARN puts them", client.appId(), shuffleId,
          gaveUp);
      stopPolling();
    }
  }

  private void stopPolling() {
    if (polling != null) {
      polling.cancel(false);
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
