package org.scache.hadoop.reduce;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapred.TaskAttemptID;
import org.apache.hadoop.mapred.TaskStatus;
import org.scache.common.Clock;
import org.scache.common.config.ScacheConf;
import org.scache.hadoop.MapReduceOptions;

/**
 * Map attempts whose SCache output a reduce could not read. Each is reported to the application
 * master as a fetch failure (with the task status, as Hadoop's shuffle does), again at an interval
 * while it is still the map's final attempt, and the reduce gives up after a bounded wait. Once the
 * application master has killed or failed the attempt (its map runs again), it is no longer reported:
 * the attempt is being replaced, and Hadoop's attempt state machine rejects a too-many-fetch-failures
 * verdict on an attempt whose kill is still cleaning up, failing the whole job.
 */
final class LostMaps {
  private final TaskStatus status;
  private final Reporter reporter;
  private final Counters.Counter failedShuffles;
  private final Clock clock;
  private final long reportIntervalMillis;
  private final long timeoutMillis;
  private final Map<TaskAttemptID, Long> lostSince = new HashMap<>();
  private long lastReport;

  LostMaps(ScacheConf conf, TaskStatus status, Reporter reporter, Counters.Counter failedShuffles, Clock clock) {
    this.status = status;
    this.reporter = reporter;
    this.failedShuffles = failedShuffles;
    this.clock = clock;
    this.reportIntervalMillis = conf.get(MapReduceOptions.REDUCE_FETCH_FAILURE_REPORT_INTERVAL).toMillis();
    this.timeoutMillis = conf.get(MapReduceOptions.REDUCE_LOST_MAP_TIMEOUT).toMillis();
  }

  boolean isLost(TaskAttemptID attempt) {
    return lostSince.containsKey(attempt);
  }

  void add(TaskAttemptID attempt) {
    lostSince.putIfAbsent(attempt, clock.millis());
    failedShuffles.increment(1);
    report(attempt);
  }

  void recovered(TaskAttemptID attempt) {
    lostSince.remove(attempt);
  }

  /**
   * Forgets the lost attempts that are no longer their map's final attempt (the map completion events
   * said the application master killed, failed or made them obsolete); a new attempt of the map is read
   * once it succeeds.
   */
  void retainCurrent(Predicate<TaskAttemptID> isFinalAttempt) {
    lostSince.keySet().removeIf(isFinalAttempt.negate());
  }

  /** Reports every still-lost map again when the interval has passed; fails when one waited too long. */
  void reportAgainIfDue() throws IOException {
    long now = clock.millis();
    for (Map.Entry<TaskAttemptID, Long> e : lostSince.entrySet()) {
      if (now - e.getValue() > timeoutMillis) {
        throw new IOException("the SCache output of " + e.getKey() + " is lost and no new attempt of the map "
            + "succeeded within " + MapReduceOptions.REDUCE_LOST_MAP_TIMEOUT.key());
      }
    }
    if (!lostSince.isEmpty() && now - lastReport >= reportIntervalMillis) {
      lostSince.keySet().forEach(this::report);
    }
  }

  private void report(TaskAttemptID attempt) {
    status.addFetchFailedMap(attempt);
    reporter.progress();
    lastReport = clock.millis();
  }
}
