package org.scache.benchmarks.hadoop;

import java.io.IOException;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Cluster;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.TaskCompletionEvent;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * Runs one of the examples' tools (TeraGen, TeraSort, TeraValidate: each submits one job and waits for
 * it) and shows the job's map and reduce progress on the console while it runs: a line whenever either
 * passes a quarter, and at least every 20 s while it moves.
 */
final class WatchedTool {
  private static final long POLL_MS = 1000;
  private static final long QUIET_NANOS = 20_000_000_000L;

  private WatchedTool() {}

  /** Runs {@code tool} with {@code args}; returns the id of the job it ran, or fails with the job's diagnostics. */
  static JobID run(String label, Tool tool, Configuration conf, String[] args, Console console) throws Exception {
    Cluster cluster = new Cluster(conf);
    try {
      Set<JobID> before = jobIds(cluster);
      AtomicReference<Object> outcome = new AtomicReference<>();
      Thread runner = new Thread(() -> {
        try {
          outcome.set(ToolRunner.run(conf, tool, args));
        } catch (Throwable t) {
          outcome.set(t);
        }
      }, label);
      runner.setDaemon(true);
      long started = System.nanoTime();
      runner.start();

      Job job = null;
      Progress shown = new Progress(-1, -1, System.nanoTime());
      while (runner.isAlive()) {
        runner.join(POLL_MS);
        if (job == null) {
          job = newJob(cluster, before);
          if (job != null) {
            console.detail(label + ": " + job.getJobID());
          }
        }
        if (job != null && runner.isAlive()) {
          shown = show(label, job, shown, started, console);
        }
      }
      if (job == null) {
        job = newJob(cluster, before);
      }
      Object rc = outcome.get();
      if (rc instanceof Throwable t) {
        throw new IllegalStateException(label + " failed: " + t + diagnostics(job), t);
      }
      if (!Integer.valueOf(0).equals(rc) || job == null) {
        throw new IllegalStateException(label + " failed (exit code " + rc + ")" + diagnostics(job));
      }
      console.detail(String.format(Locale.ROOT, "%s: done in %.1f s", label, Console.secondsSince(started)));
      return job.getJobID();
    } finally {
      cluster.close();
    }
  }

  private record Progress(int map, int reduce, long printedAt) {}

  private static Progress show(String label, Job job, Progress shown, long started, Console console) {
    int map;
    int reduce;
    try {
      map = Math.round(job.mapProgress() * 100);
      reduce = Math.round(job.reduceProgress() * 100);
    } catch (IOException | RuntimeException e) {
      return shown; // the job is between its application master and the history server
    }
    boolean quarter = map / 25 != shown.map / 25 || reduce / 25 != shown.reduce / 25;
    boolean moved = map != shown.map || reduce != shown.reduce;
    if (quarter || (moved && System.nanoTime() - shown.printedAt > QUIET_NANOS)) {
      console.detail(String.format(Locale.ROOT, "%s: map %3d%%  reduce %3d%%  (%.0f s)", label, map, reduce,
          Console.secondsSince(started)));
      return new Progress(map, reduce, System.nanoTime());
    }
    return shown;
  }

  private static Set<JobID> jobIds(Cluster cluster) throws IOException, InterruptedException {
    Set<JobID> ids = new HashSet<>();
    for (JobStatus s : cluster.getAllJobStatuses()) {
      ids.add(s.getJobID());
    }
    return ids;
  }

  /** The job submitted since {@code before} was taken, or null while there is none. */
  private static Job newJob(Cluster cluster, Set<JobID> before) throws IOException, InterruptedException {
    JobStatus newest = null;
    for (JobStatus s : cluster.getAllJobStatuses()) {
      if (!before.contains(s.getJobID()) && (newest == null || s.getStartTime() > newest.getStartTime())) {
        newest = s;
      }
    }
    return newest == null ? null : cluster.getJob(newest.getJobID());
  }

  /** Why a job failed: its failure info and the diagnostics of its failed attempts. */
  private static String diagnostics(Job job) {
    if (job == null) {
      return "; no job was submitted";
    }
    StringBuilder why = new StringBuilder();
    try {
      why.append(": ").append(job.getStatus().getFailureInfo());
      for (TaskCompletionEvent e : job.getTaskCompletionEvents(0, 10_000)) {
        if (e.getStatus() != TaskCompletionEvent.Status.SUCCEEDED) {
          why.append("\n  ").append(e.getTaskAttemptId()).append(' ').append(e.getStatus()).append(": ")
              .append(String.join(" | ", job.getTaskDiagnostics(e.getTaskAttemptId())));
        }
      }
    } catch (IOException | RuntimeException e) {
      why.append(" (diagnostics unavailable: ").append(e).append(')');
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return why.toString();
  }
}
