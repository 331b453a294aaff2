package org.scache.hadoop.reduce;

import java.io.IOException;
import java.util.Optional;
import org.apache.hadoop.mapred.JobID;
import org.apache.hadoop.mapred.MapTaskCompletionEventsUpdate;
import org.apache.hadoop.mapred.TaskAttemptID;
import org.apache.hadoop.mapred.TaskCompletionEvent;
import org.apache.hadoop.mapred.TaskUmbilicalProtocol;

/**
 * What a reduce knows about the job's maps, learnt like Hadoop's EventFetcher from the map
 * completion events the application master serves over the task umbilical: each map's final
 * (successful) attempt, maps whose output became obsolete, and maps that failed for good.
 */
final class MapCompletionTracker {
  private static final int MAX_EVENTS_PER_CALL = 10_000;

  private final TaskUmbilicalProtocol umbilical;
  private final JobID jobId;
  private final TaskAttemptID reduceId;
  private final TaskAttemptID[] finalAttempts;
  /** Of each final attempt, the HTTP address of the NodeManager that serves its output as Hadoop's shuffle. */
  private final String[] httpAddresses;
  private final boolean[] failedForGood;
  private int nextEvent;

  MapCompletionTracker(TaskUmbilicalProtocol umbilical, JobID jobId, TaskAttemptID reduceId, int numMaps) {
    this.umbilical = umbilical;
    this.jobId = jobId;
    this.reduceId = reduceId;
    this.finalAttempts = new TaskAttemptID[numMaps];
    this.httpAddresses = new String[numMaps];
    this.failedForGood = new boolean[numMaps];
  }

  /** Reads every new event; returns how many there were. */
  int poll() throws IOException {
    int seen = 0;
    while (true) {
      MapTaskCompletionEventsUpdate update = umbilical.getMapCompletionEvents(jobId, nextEvent, MAX_EVENTS_PER_CALL,
          reduceId);
      if (update.shouldReset()) {
        nextEvent = 0;
        java.util.Arrays.fill(finalAttempts, null);
        continue;
      }
      TaskCompletionEvent[] events = update.getMapTaskCompletionEvents();
      nextEvent += events.length;
      seen += events.length;
      for (TaskCompletionEvent e : events) {
        apply(e);
      }
      if (events.length < MAX_EVENTS_PER_CALL) {
        return seen;
      }
    }
  }

  private void apply(TaskCompletionEvent e) {
    TaskAttemptID attempt = e.getTaskAttemptId();
    int map = attempt.getTaskID().getId();
    if (map < 0 || map >= finalAttempts.length) {
      return;
    }
    switch (e.getTaskStatus()) {
      case SUCCEEDED -> {
        finalAttempts[map] = attempt;
        httpAddresses[map] = e.getTaskTrackerHttp();
      }
      case FAILED, KILLED, OBSOLETE -> {
        if (attempt.equals(finalAttempts[map])) {
          finalAttempts[map] = null;
        }
      }
      case TIPFAILED -> failedForGood[map] = true;
      default -> { }
    }
  }

  int numMaps() {
    return finalAttempts.length;
  }

  /** The attempt whose output the reduce must read for {@code map}, once it has succeeded. */
  Optional<TaskAttemptID> finalAttempt(int map) {
    return Optional.ofNullable(finalAttempts[map]);
  }

  /**
   * The HTTP address ({@code http://host:port}) of the NodeManager whose shuffle service serves the output of
   * {@code map}'s final attempt, when it wrote as Hadoop's shuffle.
   */
  String httpAddress(int map) {
    return httpAddresses[map];
  }

  /** Whether {@code attempt} is its map's final attempt: it succeeded and was not killed, failed or obsoleted since. */
  boolean isFinalAttempt(TaskAttemptID attempt) {
    int map = attempt.getTaskID().getId();
    return map >= 0 && map < finalAttempts.length && attempt.equals(finalAttempts[map]);
  }

  /** Whether the map failed for good (the job then fails; the reduce stops waiting for it). */
  boolean failedForGood(int map) {
    return failedForGood[map];
  }
}
