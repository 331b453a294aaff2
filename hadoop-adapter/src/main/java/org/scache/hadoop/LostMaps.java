package org.scache.hadoop;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapred.TaskAttemptID;
import org.apache.hadoop.mapred.TaskStatus;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;

/**
 * Map attempts whose SCache output a reduce could not read. Each is reported to the application
 * master as a fetch failure (with the task status, as Hadoop's shuffle does), again at an interval
 * until a new attempt of the map succeeds, and the reduce gives up after a bounded wait.
 */
final class LostMaps {
  private final TaskStatus status;
  private final Reporter reporter;
  private final Counters.Counter failedShuffles;
  private final long reportIntervalMillis;
  private final long timeoutMillis;
  private final Map<TaskAttemptID, Long> lostSince = new HashMap<>();
  private long lastReport;

  LostMaps(ScacheConf conf, TaskStatus status, Reporter reporter, Counters.Counter failedShuffles) {
    this.status = status;
    this.reporter = reporter;
    this.failedShuffles = failedShuffles;
    this.reportIntervalMillis = conf.get(ScacheOptions.HADOOP_REDUCE_FETCH_FAILURE_REPORT_INTERVAL).toMillis();
    this.timeoutMillis = conf.get(ScacheOptions.HADOOP_REDUCE_LOST_MAP_TIMEOUT).toMillis();
  }

  boolean isLost(TaskAttemptID attempt) {
    return lostSince.containsKey(attempt);
  }

  void add(TaskAttemptID attempt) {
    lostSince.putIfAbsent(attempt, System.currentTimeMillis());
    failedShuffles.increment(1);
    report(attempt);
  }

  void recovered(TaskAttemptID attempt) {
    lostSince.remove(attempt);
  }

  /** Reports every still-lost map again when the interval has passed; fails when one waited too long. */
  void reportAgainIfDue() throws IOException {
    long now = System.currentTimeMillis();
    for (Map.Entry<TaskAttemptID, Long> e : lostSince.entrySet()) {
      if (now - e.getValue() > timeoutMillis) {
        throw new IOException("the SCache output of " + e.getKey() + " is lost and no new attempt of the map "
            + "succeeded within " + ScacheOptions.HADOOP_REDUCE_LOST_MAP_TIMEOUT.key());
      }
    }
    if (!lostSince.isEmpty() && now - lastReport >= reportIntervalMillis) {
      lostSince.keySet().forEach(this::report);
    }
  }

  private void report(TaskAttemptID attempt) {
    status.addFetchFailedMap(attempt);
    reporter.progress();
    lastReport = System.currentTimeMillis();
  }
}
