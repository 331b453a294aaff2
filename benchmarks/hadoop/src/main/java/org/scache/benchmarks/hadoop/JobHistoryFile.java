package org.scache.benchmarks.hadoop;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.jobhistory.JobHistoryParser.JobInfo;
import org.apache.hadoop.mapreduce.jobhistory.JobHistoryParser;
import org.apache.hadoop.mapreduce.v2.jobhistory.JobHistoryUtils;

/**
 * A finished job's history file ({@code .jhist}), the application master's record of every task
 * attempt: start, shuffle finish and finish times, node, counters. The file is first in the
 * history server's intermediate directory and later in its done directory; both are searched until it
 * shows up.
 */
final class JobHistoryFile {
  private static final long WAIT_MS = 120_000;

  private JobHistoryFile() {}

  /** Finds and parses the history of {@code job}. */
  static JobInfo read(JobID job, Configuration conf) throws IOException, InterruptedException {
    long deadline = System.currentTimeMillis() + WAIT_MS;
    IOException last = null;
    while (System.currentTimeMillis() < deadline) {
      try {
        Path file = find(job, conf);
        if (file != null) {
          JobHistoryParser parser = new JobHistoryParser(file.getFileSystem(conf), file);
          JobInfo info = parser.parse();
          if (parser.getParseException() != null) {
            throw parser.getParseException();
          }
          return info;
        }
      } catch (FileNotFoundException e) {
        last = e; // moved from the intermediate to the done directory meanwhile
      }
      Thread.sleep(500);
    }
    throw new IOException("no history file for " + job + " after " + WAIT_MS / 1000 + " s", last);
  }

  private static Path find(JobID job, Configuration conf) throws IOException {
    List<String> dirs = new ArrayList<>();
    dirs.add(JobHistoryUtils.getConfiguredHistoryIntermediateDoneDirPrefix(conf));
    dirs.add(JobHistoryUtils.getConfiguredHistoryServerDoneDirPrefix(conf));
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
          return p;
        }
      }
    }
    return null;
  }
}
