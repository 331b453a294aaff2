package org.scache.hadoop.appmaster;

import java.time.Duration;
import java.util.BitSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptCompletionEvent;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptCompletionEventStatus;
import org.apache.hadoop.mapreduce.v2.api.records.TaskType;
import org.apache.hadoop.mapreduce.v2.app.job.Job;
import org.scache.client.ScacheClient;
import org.scache.common.DaemonThreads;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Frees every reduce's input on the workers once the reduce has committed its output: a shuffle block
 * is read once (paper Section IV-C), so its memory goes back to the store as soon as no attempt of its
 * reduce can need it again. The application master's task attempt completion events say when: MapReduce
 * reports a reduce attempt as succeeded only after its output is committed, and a succeeded reduce is
 * never run again. Each such reduce is announced to the master once ({@code reduceCommitted}), which
 * tells every worker. A reduce that is not announced (the master unreachable) is freed with its
 * application when the job ends.
 */
final class CommittedReduces implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(CommittedReduces.class);
  private static final int EVENTS_PER_CALL = 1000;

  private final Job job;
  private final ScacheClient client;
  private final int shuffleId;
  private final BitSet announced = new BitSet();
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
      DaemonThreads.named("scache-committed-reduces"));
  private int nextEvent;
  private boolean unreachable;

  CommittedReduces(Job job, ScacheClient client, int shuffleId) {
    this.job = job;
    this.client = client;
    this.shuffleId = shuffleId;
  }

  /** Reads the job's new completion events every {@code interval}. */
  void start(Duration interval) {
    long ms = Math.max(1, interval.toMillis());
    timer.scheduleWithFixedDelay(this::poll, ms, ms, TimeUnit.MILLISECONDS);
  }

  /** Announces the reduces that succeeded since the last call; returns how many. Runs on the timer. */
  int poll() {
    int count = 0;
    while (true) {
      TaskAttemptCompletionEvent[] events = job.getTaskAttemptCompletionEvents(nextEvent, EVENTS_PER_CALL);
      nextEvent += events.length;
      for (TaskAttemptCompletionEvent e : events) {
        if (e.getStatus() == TaskAttemptCompletionEventStatus.SUCCEEDED
            && e.getAttemptId().getTaskId().getTaskType() == TaskType.REDUCE) {
          int reduce = e.getAttemptId().getTaskId().getId();
          if (!announced.get(reduce)) {
            announced.set(reduce);
            count++;
            announce(reduce);
          }
        }
      }
      if (events.length < EVENTS_PER_CALL) {
        return count;
      }
    }
  }

  private void announce(int reduce) {
    if (unreachable) {
      return;
    }
    try {
      client.reduceCommitted(shuffleId, reduce);
    } catch (RuntimeException e) {
      // not retried: the workers free the job's blocks when it ends
      unreachable = true;
      LOG.warn("{}: could not tell the master that reduce {} committed ({}); its input stays until the job ends",
          client.appId(), reduce, e.toString());
    }
  }

  /** Announces the last committed reduces and stops. */
  @Override
  public void close() {
    try {
      timer.submit(this::poll).get(30, TimeUnit.SECONDS);
    } catch (ExecutionException | TimeoutException | RuntimeException e) {
      LOG.warn("{}: the last committed reduces were not announced ({})", client.appId(), e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      timer.shutdownNow();
    }
  }
}
