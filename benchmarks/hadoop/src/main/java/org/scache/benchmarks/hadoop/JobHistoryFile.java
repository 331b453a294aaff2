package org.scache.benchmarks.hadoop;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.jobhistory.JobHistoryParser.JobInfo;
import org.scache.hadoop.frq.JobHistoryReader;

/**
 * A job's history file ({@code .jhist}) read as soon as the application master has written it: the file is
 * first in the history server's intermediate directory and later in its done directory; both are searched
 * ({@link JobHistoryReader}) until it shows up.
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
        Optional<Path> file = JobHistoryReader.find(job, conf);
        if (file.isPresent()) {
          return JobHistoryReader.parse(file.get(), conf);
        }
      } catch (FileNotFoundException e) {
        last = e; // moved from the intermediate to the done directory meanwhile
      }
      Thread.sleep(500);
    }
    throw new IOException("no history file for " + job + " after " + WAIT_MS / 1000 + " s", last);
  }
}
