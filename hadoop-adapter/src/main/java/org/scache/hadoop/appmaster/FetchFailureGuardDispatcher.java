package org.scache.hadoop.appmaster;

import java.util.function.Supplier;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptState;
import org.apache.hadoop.mapreduce.v2.app.AppContext;
import org.apache.hadoop.mapreduce.v2.app.job.Job;
import org.apache.hadoop.mapreduce.v2.app.job.Task;
import org.apache.hadoop.mapreduce.v2.app.job.TaskAttempt;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskAttemptEvent;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskAttemptEventType;
import org.apache.hadoop.yarn.event.AsyncDispatcher;
import org.apache.hadoop.yarn.event.Event;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The application master's event dispatcher, with one guard. When reduces have reported a map
 * attempt's output lost often enough, the job sends the attempt a too-many-fetch-failures verdict. If
 * the application master has meanwhile killed that attempt (its node was lost, so the map runs again),
 * Hadoop's attempt state machine rejects the verdict while the kill cleans up the container, and the
 * job fails with "Invalid event TA_TOO_MANY_FETCH_FAILURE". The verdict asks for what is already
 * under way, so it is dropped for an attempt already killed or failed; every other event is dispatched
 * as by the stock dispatcher.
 */
final class FetchFailureGuardDispatcher extends AsyncDispatcher {
  private static final Logger LOG = LoggerFactory.getLogger(FetchFailureGuardDispatcher.class);

  private final Supplier<AppContext> context;

  FetchFailureGuardDispatcher(Supplier<AppContext> context) {
    this.context = context;
  }

  // Hadoop's AsyncDispatcher declares the raw type
  @SuppressWarnings("rawtypes")
  @Override
  protected void dispatch(Event event) {
    if (event instanceof TaskAttemptEvent e && e.getType() == TaskAttemptEventType.TA_TOO_MANY_FETCH_FAILURE) {
      TaskAttemptState state = stateOf(e.getTaskAttemptID());
      if (state == TaskAttemptState.KILLED || state == TaskAttemptState.FAILED) {
        LOG.info("{} is already {}: its map runs again, so the reduces' fetch failures against it are dropped",
            e.getTaskAttemptID(), state);
        return;
      }
    }
    super.dispatch(event);
  }

  /** The attempt's state, or null when the application master does not know it. */
  private TaskAttemptState stateOf(TaskAttemptId id) {
    AppContext app = context.get();
    Job job = app == null ? null : app.getJob(id.getTaskId().getJobId());
    Task task = job == null ? null : job.getTask(id.getTaskId());
    TaskAttempt attempt = task == null ? null : task.getAttempt(id);
    return attempt == null ? null : attempt.getState();
  }
}
