package org.scache.hadoop.frq;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.FileSystemCounter;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.jobhistory.JobHistoryParser;
import org.apache.hadoop.mapreduce.jobhistory.JobHistoryParser.JobInfo;
import org.apache.hadoop.mapreduce.jobhistory.JobHistoryParser.TaskAttemptInfo;
import org.apache.hadoop.mapreduce.jobhistory.JobHistoryParser.TaskInfo;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormatCounter;
import org.apache.hadoop.mapreduce.v2.jobhistory.JobHistoryUtils;
import org.scache.hadoop.ScacheCounter;

/**
 * Reads a finished MapReduce job's history file ({@code .jhist}, the application master's record of every
 * task attempt) into what the FRQ model is fitted from. A job is found by its id in the history server's
 * intermediate and done directories of the cluster's configuration, or read from a file given by path.
 */
public final class JobHistoryReader {
  private JobHistoryReader() {}

  /** A job read from its history: the model's inputs and what a report names it by. */
  public record HistoryJob(JobID id, String name, FrqJob job, int maps, int reduces, int nodes) {}

  /** The history file of {@code job} in the configured history directories, if it is there yet. */
  public static Optional<Path> find(JobID job, Configuration conf) throws IOException {
    List<String> dirs = List.of(JobHistoryUtils.getConfiguredHistoryIntermediateDoneDirPrefix(conf),
        JobHistoryUtils.getConfiguredHistoryServerDoneDirPrefix(conf));
    String prefix = job.toString() + "-";
    for (String dir : dirs) {
      Path root = new Path(dir);
      FileSystem fs = root.getFileSystem(conf);
      if (!fs.exists(root)) {
        continue;
      }
      RemoteIterator<LocatedFileStatus> files = fs.listFiles(root, true);
      while (files.hasNext()) {
        Path p = files.next().getPath();
        if (p.getName().startsWith(prefix) && p.getName().endsWith(JobHistoryUtils.JOB_HISTORY_FILE_EXTENSION)) {
          return Optional.of(p);
        }
      }
    }
    return Optional.empty();
  }

  /** Parses the history file {@code file}; fails on a file that is not a job's history. */
  public static JobInfo parse(Path file, Configuration conf) throws IOException {
    JobHistoryParser parser = new JobHistoryParser(file.getFileSystem(conf), file);
    JobInfo info = parser.parse();
    if (parser.getParseException() != null) {
      throw new IOException("cannot read the job history " + file + ": " + parser.getParseException().getMessage(),
          parser.getParseException());
    }
    if (info.getJobId() == null || info.getFinishTime() <= 0) {
      throw new IOException(file + " is not the history of a finished job");
    }
    return info;
  }

  /**
   * The model's inputs from {@code info}. The job ran on SCache when its maps put blocks into it; its input is
   * what its maps read through their input format (else from the file systems), its shuffle what its reduces
   * shuffled (else what the maps put into SCache). {@code reduceLaunchSeconds} is the reduces' launch, which the
   * history does not hold (0: the paper's model).
   */
  public static HistoryJob of(JobInfo info, double reduceLaunchSeconds) {
    List<TaskSpan> attempts = new ArrayList<>();
    Set<String> hosts = new HashSet<>();
    int maps = 0;
    int reduces = 0;
    for (TaskInfo task : info.getAllTasks().values()) {
      boolean map = task.getTaskType() == TaskType.MAP;
      if (!map && task.getTaskType() != TaskType.REDUCE) {
        continue;
      }
      if (map) {
        maps++;
      } else {
        reduces++;
      }
      for (TaskAttemptInfo a : task.getAllTaskAttempts().values()) {
        attempts.add(new TaskSpan(map, a.getStartTime(), map ? 0 : a.getShuffleFinishTime(), a.getFinishTime(),
            "SUCCEEDED".equals(a.getTaskStatus())));
        if (a.getHostname() != null) {
          hosts.add(a.getHostname());
        }
      }
    }
    Counters total = info.getTotalCounters();
    Counters mapCounters = info.getMapCounters();
    long put = counter(total, ScacheCounter.BYTES_PUT);
    Shuffle shuffle = put > 0 ? Shuffle.SCACHE : Shuffle.HADOOP;
    long input = counter(mapCounters, FileInputFormatCounter.BYTES_READ);
    if (input <= 0 && mapCounters != null) {
      input = mapCounters.findCounter("hdfs", FileSystemCounter.BYTES_READ).getValue()
          + mapCounters.findCounter("file", FileSystemCounter.BYTES_READ).getValue();
    }
    long shuffled = counter(total, TaskCounter.REDUCE_SHUFFLE_BYTES);
    FrqJob job = FrqJob.of(shuffle, input, shuffled > 0 ? shuffled : put, attempts, info.getSubmitTime(),
        info.getFinishTime(), reduceLaunchSeconds);
    return new HistoryJob(info.getJobId(), info.getJobname(), job, maps, reduces, Math.max(1, hosts.size()));
  }

  private static long counter(Counters counters, Enum<?> key) {
    return counters == null ? 0 : counters.findCounter(key).getValue();
  }
}
