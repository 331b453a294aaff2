package org.scache.hadoop.appmaster;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.OptionalLong;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptState;
import org.apache.hadoop.mapreduce.v2.api.records.TaskState;
import org.apache.hadoop.mapreduce.v2.app.job.Task;
import org.apache.hadoop.mapreduce.v2.app.job.TaskAttempt;

/**
 * When a job's last map should end: each map not yet finished ends its launch plus the median time of
 * the job's finished maps after it launched (a map still to be launched, now plus that median), the latest
 * of them; a map past the median is taken to end now. There is no forecast before any map has finished.
 */
final class MapStageForecast {
  /** One map task as the application master sees it: its live attempt's launch (0: not yet), or its finished run. */
  record MapRun(long launched, long finished) {
    boolean isFinished() {
      return finished > 0;
    }
  }

  private MapStageForecast() {}

  /** The expected end (epoch ms) of the last of {@code maps}, or empty before any has finished. */
  static OptionalLong lastMapEnd(Collection<MapRun> maps, long now) {
    List<Long> durations = new ArrayList<>();
    List<Long> unfinished = new ArrayList<>();
    for (MapRun m : maps) {
      if (m.isFinished()) {
        durations.add(Math.max(0, m.finished() - m.launched()));
      } else {
        unfinished.add(m.launched() > 0 ? m.launched() : now);
      }
    }
    if (durations.isEmpty()) {
      return OptionalLong.empty();
    }
    durations.sort(null);
    long median = durations.get(durations.size() / 2);
    long last = now;
    for (long launched : unfinished) {
      last = Math.max(last, launched + median);
    }
    return OptionalLong.of(last);
  }

  /**
   * Each map task of the job that has not failed: its succeeded attempt's launch and finish, else the
   * latest launch of its live attempts (0 while none is launched).
   */
  static List<MapRun> of(Collection<Task> maps) {
    List<MapRun> runs = new ArrayList<>(maps.size());
    for (Task task : maps) {
      if (task.getState() == TaskState.FAILED || task.getState() == TaskState.KILLED) {
        continue;
      }
      MapRun run = new MapRun(0, 0);
      for (TaskAttempt a : task.getAttempts().values()) {
        if (a.getState() == TaskAttemptState.SUCCEEDED && a.getFinishTime() > 0) {
          run = new MapRun(a.getLaunchTime(), a.getFinishTime());
          break;
        }
        if (!a.isFinished() && a.getLaunchTime() > run.launched()) {
          run = new MapRun(a.getLaunchTime(), 0);
        }
      }
      runs.add(run);
    }
    return runs;
  }
}
