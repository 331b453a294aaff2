package org.scache.benchmarks.spark;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.executor.TaskMetrics;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerStageCompleted;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.scheduler.StageInfo;
import org.apache.spark.scheduler.TaskInfo;

/**
 * What an application's stages and tasks did, from Spark's listener events: when each stage ran and
 * what it shuffled, and for each task its host, its times and its shuffle read.
 */
final class StageFigures extends SparkListener {
  /** A completed stage: its times (epoch ms) and the shuffle bytes its tasks wrote and read. */
  record Stage(int id, String name, int tasks, long submitted, long completed, long shuffleWriteBytes,
      long shuffleReadBytes) {
    long millis() {
      return completed - submitted;
    }
  }

  /**
   * A finished task: its stage and partition, the host it ran on, its times (epoch ms), how long it
   * waited for shuffle data, the shuffle bytes it read locally and remotely, its CPU time, the locality
   * level Spark launched it at (PROCESS_LOCAL, NODE_LOCAL, NO_PREF, RACK_LOCAL or ANY), and the time it ran in its
   * executor (Spark's executor run time, ms: its shuffle reads' waits included).
   */
  record Task(int stageId, int partition, String host, long launch, long finish, boolean successful,
      long fetchWaitMs, long localBytes, long remoteBytes, long cpuMs, String locality, long runMs) {}

  private final List<Stage> stages = new ArrayList<>();
  private final List<Task> tasks = new ArrayList<>();

  @Override
  public synchronized void onStageCompleted(SparkListenerStageCompleted event) {
    StageInfo s = event.stageInfo();
    TaskMetrics m = s.taskMetrics();
    stages.add(new Stage(s.stageId(), s.name(), s.numTasks(), epochMillis(s.submissionTime()),
        epochMillis(s.completionTime()), m == null ? 0 : m.shuffleWriteMetrics().bytesWritten(),
        m == null ? 0 : m.shuffleReadMetrics().totalBytesRead()));
  }

  private static long epochMillis(scala.Option<Object> time) {
    return time.isDefined() ? (Long) time.get() : 0L;
  }

  @Override
  public synchronized void onTaskEnd(SparkListenerTaskEnd event) {
    TaskInfo t = event.taskInfo();
    TaskMetrics m = event.taskMetrics();
    tasks.add(new Task(event.stageId(), t.index(), t.host(), t.launchTime(), t.finishTime(), t.successful(),
        m == null ? 0 : m.shuffleReadMetrics().fetchWaitTime(),
        m == null ? 0 : m.shuffleReadMetrics().localBytesRead(),
        m == null ? 0 : m.shuffleReadMetrics().remoteBytesRead(),
        m == null ? 0 : m.executorCpuTime() / 1_000_000, t.taskLocality().toString(),
        m == null ? 0 : m.executorRunTime()));
  }

  synchronized void clear() {
    stages.clear();
    tasks.clear();
  }

  synchronized List<Stage> stages() {
    return List.copyOf(stages);
  }

  synchronized List<Task> tasks() {
    return List.copyOf(tasks);
  }
}
