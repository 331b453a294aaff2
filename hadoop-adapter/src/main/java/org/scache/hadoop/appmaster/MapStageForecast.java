package org.scache.hadoop.appmaster;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.CounterGroup;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptState;
import org.apache.hadoop.mapreduce.v2.api.records.TaskState;
import org.apache.hadoop.mapreduce.v2.app.job.Task;
import org.apache.hadoop.mapreduce.v2.app.job.TaskAttempt;
import org.scache.hadoop.ScacheCounter;

/**
 * When a job's last map should end, and how long its tasks take to start. Each unfinished map ends when it has
 * used the CPU a finished map needed, at the share of the cores it has with as many maps running as now
 * ({@link SharedCoresPace}: a last, partial wave runs faster than the full waves before it where maps share
 * cores), or, where no finished map reported its CPU, its launch plus the median time of the finished maps (a
 * map still to be launched, now plus that median); sooner if its progress, at the pace it has shown, reaches
 * the end sooner ({@link MapProgressRates}), though a map's first progress reports, with its JVM still warming
 * up and the sort phase's share still to come, make it look slower than it is. The latest of them is the last
 * map's end, and a map past its forecast is taken to end now.
 * There is no forecast before any map has finished. A task's start is the median, over the finished maps, of the
 * time from each one's JVM start to its output collector's ({@link ScacheCounter#MAP_JVM_STARTUP_MILLIS}).
 */
final class MapStageForecast {
  /**
   * One map task as the application master sees it: its live attempt's launch (0: not yet) and the end its
   * progress forecasts (0: none), or its finished run with its JVM's start-up and its CPU (each negative where
   * the map did not report it).
   */
  record MapRun(long launched, long finished, long jvmStartupMillis, long cpuMillis, long paceEnd) {
    MapRun(long launched, long finished) {
      this(launched, finished, -1, -1, 0);
    }

    static MapRun running(long launched, long paceEnd) {
      return new MapRun(launched, 0, -1, -1, paceEnd);
    }

    static MapRun finished(long launched, long finished, long jvmStartupMillis, long cpuMillis) {
      return new MapRun(launched, finished, jvmStartupMillis, cpuMillis, 0);
    }

    boolean isFinished() {
      return finished > 0;
    }
  }

  private MapStageForecast() {}

  /** The expected end (epoch ms) of the last of {@code maps}, or empty before any has finished. */
  static OptionalLong lastMapEnd(Collection<MapRun> maps, long now) {
    List<Long> durations = new ArrayList<>();
    List<MapRun> unfinished = new ArrayList<>();
    for (MapRun m : maps) {
      if (m.isFinished()) {
        durations.add(Math.max(0, m.finished() - m.launched()));
      } else {
        unfinished.add(m);
      }
    }
    if (durations.isEmpty()) {
      return OptionalLong.empty();
    }
    long median = Medians.of(durations);
    Optional<SharedCoresPace> shared = SharedCoresPace.of(maps, now);
    long last = now;
    for (MapRun m : unfinished) {
      long forecast = shared.isPresent() ? shared.get().expectedEnd(m, now)
          : (m.launched() > 0 ? m.launched() : now) + median;
      long end = m.paceEnd() > 0 ? Math.min(m.paceEnd(), forecast) : forecast;
      last = Math.max(last, end);
    }
    return OptionalLong.of(last);
  }

  /** The median JVM start-up of the finished maps that reported one, or 0 when none did. */
  static long medianJvmStartup(Collection<MapRun> maps) {
    List<Long> startups = new ArrayList<>();
    for (MapRun m : maps) {
      if (m.isFinished() && m.jvmStartupMillis() >= 0) {
        startups.add(m.jvmStartupMillis());
      }
    }
    return startups.isEmpty() ? 0 : Medians.of(startups);
  }

  /**
   * Each map task of the job that has not failed: its succeeded attempt's launch, finish and JVM start-up,
   * else the latest launch of its live attempts (0 while none is launched) and the end that attempt's
   * progress forecasts at {@code now}.
   */
  static List<MapRun> of(Collection<Task> maps, MapProgressRates rates, long now) {
    List<MapRun> runs = new ArrayList<>(maps.size());
    Set<Object> running = new HashSet<>();
    for (Task task : maps) {
      if (task.getState() == TaskState.FAILED || task.getState() == TaskState.KILLED) {
        continue;
      }
      MapRun run = new MapRun(0, 0);
      for (TaskAttempt a : task.getAttempts().values()) {
        if (a.getState() == TaskAttemptState.SUCCEEDED && a.getFinishTime() > 0) {
          run = MapRun.finished(a.getLaunchTime(), a.getFinishTime(), jvmStartup(a.getCounters()),
              cpuMillis(a.getCounters()));
          break;
        }
        if (a.isFinished()) {
          continue;
        }
        // every live attempt keeps its first sample, a speculative one too, whichever the forecast uses
        running.add(a.getID());
        if (a.getLaunchTime() > run.launched()) {
          run = MapRun.running(a.getLaunchTime(), rates.expectedEnd(a.getID(), now, a.getProgress()));
        }
      }
      runs.add(run);
    }
    rates.retain(running);
    return runs;
  }

  private static long jvmStartup(Counters counters) {
    return positive(counters, ScacheCounter.class.getName(), ScacheCounter.MAP_JVM_STARTUP_MILLIS.name());
  }

  private static long cpuMillis(Counters counters) {
    return positive(counters, TaskCounter.class.getName(), TaskCounter.CPU_MILLISECONDS.name());
  }

  /** A counter's value where it is positive, else -1. */
  private static long positive(Counters counters, String groupName, String counterName) {
    if (counters == null) {
      return -1;
    }
    // looked up without creating it: these are the attempt's own counters
    for (CounterGroup group : counters) {
      if (group.getName().equals(groupName)) {
        Counter c = group.findCounter(counterName, false);
        return c == null || c.getValue() <= 0 ? -1 : c.getValue();
      }
    }
    return -1;
  }
}
