package org.scache.benchmarks.hadoop;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.FileSystemCounter;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.jobhistory.JobHistoryParser.JobInfo;
import org.apache.hadoop.mapreduce.jobhistory.JobHistoryParser.TaskAttemptInfo;
import org.apache.hadoop.mapreduce.jobhistory.JobHistoryParser.TaskInfo;
import org.scache.benchmarks.harness.Stats;
import org.scache.hadoop.ScacheCounter;
import org.scache.hadoop.frq.Shuffle;

/**
 * What one finished TeraSort job measured, from its history file. Times are epoch milliseconds.
 *
 * <ul>
 *   <li>job time: submission to finish;
 *   <li>map stage: the first map attempt's start to the last successful map's finish;
 *   <li>reduce stage: from the end of the map stage to the last successful reduce's finish (what the
 *       job spends after its maps, whenever its reduces started);
 *   <li>shuffle wait of a reducer: its successful attempt's start to the end of its shuffle (Hadoop's
 *       reduces start while maps still run, and wait for them in their shuffle);
 *   <li>map disk bytes: the maps' {@code FILE_BYTES_WRITTEN} (spills and shuffle files);
 *   <li>reducers placed: the job counters {@code REDUCES_ON_SCHEDULED_NODE} and {@code REDUCES_ELSEWHERE};
 *   <li>CPU: the maps' and reduces' {@code CPU_MILLISECONDS}, and the machine's while the job ran ({@link CpuUse});
 *   <li>the first map wave: the maps that started before any map finished, their mean time and CPU
 *       ({@link FirstMapWave}).
 * </ul>
 */
record JobFigures(Shuffle shuffle, JobID id, long submit, long finish, long firstMapStart, long lastMapFinish,
    long lastReduceFinish, List<AttemptSpan> attempts, long mapFileBytesWritten, long reducesOnScheduledNode,
    long reducesElsewhere, long scacheBytesPut, long scacheBytesRead, long reduceShuffleBytes, CpuUse cpu,
    FirstMapWave firstMapWave) {

  static JobFigures of(Shuffle shuffle, JobInfo job) {
    List<AttemptSpan> attempts = new ArrayList<>();
    List<FirstMapWave.Map> maps = new ArrayList<>();
    for (TaskInfo task : job.getAllTasks().values()) {
      boolean map = task.getTaskType() == TaskType.MAP;
      if (!map && task.getTaskType() != TaskType.REDUCE) {
        continue;
      }
      for (TaskAttemptInfo a : task.getAllTaskAttempts().values()) {
        boolean ok = "SUCCEEDED".equals(a.getTaskStatus());
        attempts.add(new AttemptSpan(map, a.getAttemptId().getTaskID().getId(), a.getAttemptId().getId(),
            a.getStartTime(), map ? 0 : a.getShuffleFinishTime(), a.getFinishTime(), ok,
            a.getHostname() == null ? "" : a.getHostname() + ":" + a.getPort(),
            a.getContainerId() == null ? "" : a.getContainerId().toString(), 0));
        if (map && ok) {
          maps.add(new FirstMapWave.Map(a.getStartTime(), a.getFinishTime(),
              a.getCounters() == null ? 0 : counter(a.getCounters(), TaskCounter.CPU_MILLISECONDS)));
        }
      }
    }
    attempts.sort(Comparator.comparing((AttemptSpan a) -> !a.map()).thenComparingLong(AttemptSpan::start)
        .thenComparingInt(AttemptSpan::task));
    long firstMapStart = attempts.stream().filter(AttemptSpan::map).mapToLong(AttemptSpan::start).min()
        .orElse(job.getLaunchTime());
    long lastMapFinish = attempts.stream().filter(a -> a.map() && a.succeeded()).mapToLong(AttemptSpan::finish).max()
        .orElse(firstMapStart);
    long lastReduceFinish = attempts.stream().filter(a -> !a.map() && a.succeeded()).mapToLong(AttemptSpan::finish)
        .max().orElse(lastMapFinish);
    Counters total = job.getTotalCounters();
    Counters mapCounters = job.getMapCounters();
    return new JobFigures(shuffle, job.getJobId(), job.getSubmitTime(), job.getFinishTime(), firstMapStart,
        lastMapFinish, lastReduceFinish, List.copyOf(attempts),
        mapCounters == null ? 0 : mapCounters.findCounter("file", FileSystemCounter.BYTES_WRITTEN).getValue(),
        counter(total, ScacheCounter.REDUCES_ON_SCHEDULED_NODE), counter(total, ScacheCounter.REDUCES_ELSEWHERE),
        counter(total, ScacheCounter.BYTES_PUT), counter(total, ScacheCounter.BYTES_READ),
        counter(total, TaskCounter.REDUCE_SHUFFLE_BYTES),
        CpuUse.ofTasks(counter(mapCounters, TaskCounter.CPU_MILLISECONDS),
            counter(job.getReduceCounters(), TaskCounter.CPU_MILLISECONDS)), FirstMapWave.of(maps));
  }

  private static long counter(Counters counters, Enum<?> key) {
    return counters == null ? 0 : counters.findCounter(key).getValue();
  }

  double jobSeconds() {
    return (finish - submit) / 1000.0;
  }

  double mapStageSeconds() {
    return (lastMapFinish - firstMapStart) / 1000.0;
  }

  double reduceStageSeconds() {
    return (lastReduceFinish - lastMapFinish) / 1000.0;
  }

  /** Every successful reduce's shuffle wait, in seconds, in reduce order. */
  List<Double> shuffleWaitSeconds() {
    return attempts.stream().filter(a -> a.shuffleWaitMs() >= 0).sorted(Comparator.comparingInt(AttemptSpan::task))
        .map(a -> a.shuffleWaitMs() / 1000.0).toList();
  }

  /** The reduces' JVM starts and shuffle beginnings, by container, from {@code logs}. */
  JobFigures withTaskLogs(java.util.function.Function<String, ContainerLogs.TaskLog> logs) {
    List<AttemptSpan> with = attempts.stream().map(a -> a.map() ? a : a.withTaskLog(logs.apply(a.container())))
        .toList();
    return new JobFigures(shuffle, id, submit, finish, firstMapStart, lastMapFinish, lastReduceFinish, with,
        mapFileBytesWritten, reducesOnScheduledNode, reducesElsewhere, scacheBytesPut, scacheBytesRead,
        reduceShuffleBytes, cpu, firstMapWave);
  }

  /** With the machine's busy CPU milliseconds while the job ran. */
  JobFigures withMachineCpu(long millis) {
    return new JobFigures(shuffle, id, submit, finish, firstMapStart, lastMapFinish, lastReduceFinish, attempts,
        mapFileBytesWritten, reducesOnScheduledNode, reducesElsewhere, scacheBytesPut, scacheBytesRead,
        reduceShuffleBytes, cpu.withMachine(millis), firstMapWave);
  }

  /** Every successful reduce's shuffle after its JVM was up, in seconds, in reduce order (empty when unknown). */
  List<Double> shuffleAfterJvmSeconds() {
    return attempts.stream().filter(a -> a.shuffleAfterJvmMs() >= 0)
        .sorted(Comparator.comparingInt(AttemptSpan::task)).map(a -> a.shuffleAfterJvmMs() / 1000.0).toList();
  }

  double medianShuffleAfterJvmSeconds() {
    return medianOf(AttemptSpan::shuffleAfterJvmMs);
  }

  /** The median of the successful reduces' launches, start to shuffle's beginning, in seconds (NaN when unknown). */
  double medianLaunchSeconds() {
    return medianOf(AttemptSpan::launchMs);
  }

  /** The median of the successful reduces' shuffles from their beginning, in seconds (NaN when unknown). */
  double medianShuffleItselfSeconds() {
    return medianOf(AttemptSpan::shuffleItselfMs);
  }

  private double medianOf(java.util.function.ToLongFunction<AttemptSpan> millis) {
    List<Double> v = attempts.stream().mapToLong(millis).filter(ms -> ms >= 0).mapToObj(ms -> ms / 1000.0).toList();
    return v.isEmpty() ? Double.NaN : Stats.median(v);
  }

  double medianShuffleWaitSeconds() {
    return Stats.median(shuffleWaitSeconds());
  }

  double maxShuffleWaitSeconds() {
    return shuffleWaitSeconds().stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
  }

  long maps() {
    return attempts.stream().filter(a -> a.map() && a.succeeded()).count();
  }

  long reduces() {
    return attempts.stream().filter(a -> !a.map() && a.succeeded()).count();
  }

  /** The fraction of reduce attempts that ran on the node holding their data, or NaN when none was counted. */
  double placedFraction() {
    long all = reducesOnScheduledNode + reducesElsewhere;
    return all == 0 ? Double.NaN : reducesOnScheduledNode / (double) all;
  }
}
