package org.scache.hadoop.reduce;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;

import java.io.IOException;
import java.time.Duration;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapred.TaskAttemptID;
import org.apache.hadoop.mapred.TaskStatus;
import org.apache.hadoop.mapreduce.TaskType;
import org.junit.jupiter.api.Test;
import org.scache.common.config.ScacheConf;
import org.scache.common.testing.ManualClock;
import org.scache.hadoop.MapReduceOptions;

class LostMapsTest {
  private static final TaskAttemptID MAP_3 = new TaskAttemptID("1795", 3, TaskType.MAP, 3, 0);

  private final ManualClock clock = new ManualClock();
  private final TaskStatus status = mock(TaskStatus.class);
  private final LostMaps lost = new LostMaps(ScacheConf.empty()
      .with(MapReduceOptions.REDUCE_FETCH_FAILURE_REPORT_INTERVAL, Duration.ofSeconds(3))
      .with(MapReduceOptions.REDUCE_LOST_MAP_TIMEOUT, Duration.ofMinutes(10)),
      status, mock(Reporter.class), mock(Counters.Counter.class), clock);

  @Test
  void lostAttemptStillFinal_isReportedAgainEveryInterval() throws IOException {
    lost.add(MAP_3);
    lost.reportAgainIfDue();
    clock.advance(Duration.ofSeconds(3));
    lost.retainCurrent(a -> true);
    lost.reportAgainIfDue();

    verify(status, times(2)).addFetchFailedMap(MAP_3);
    assertTrue(lost.isLost(MAP_3));
  }

  @Test
  void attemptTheApplicationMasterReplaced_isNoLongerReported() throws IOException {
    lost.add(MAP_3);
    lost.retainCurrent(a -> !a.equals(MAP_3));
    clock.advance(Duration.ofMinutes(11));
    lost.reportAgainIfDue();

    verify(status, times(1)).addFetchFailedMap(MAP_3);
    assertFalse(lost.isLost(MAP_3), "a new attempt of the map is read once it succeeds");
  }

  @Test
  void lostAttemptNotReplacedWithinTheTimeout_failsTheReduce() {
    lost.add(MAP_3);
    clock.advance(Duration.ofMinutes(10).plusMillis(1));

    IOException e = assertThrows(IOException.class, lost::reportAgainIfDue);
    assertTrue(e.getMessage().contains(MapReduceOptions.REDUCE_LOST_MAP_TIMEOUT.key()), e.getMessage());
  }
}
