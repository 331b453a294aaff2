package org.scache.hadoop.appmaster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.mapreduce.v2.api.records.JobId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptState;
import org.apache.hadoop.mapreduce.v2.api.records.TaskType;
import org.apache.hadoop.mapreduce.v2.app.AppContext;
import org.apache.hadoop.mapreduce.v2.app.job.Job;
import org.apache.hadoop.mapreduce.v2.app.job.Task;
import org.apache.hadoop.mapreduce.v2.app.job.TaskAttempt;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskAttemptEvent;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskAttemptEventType;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskAttemptTooManyFetchFailureEvent;
import org.apache.hadoop.mapreduce.v2.util.MRBuilderUtils;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.junit.jupiter.api.Test;

class FetchFailureGuardDispatcherTest {
  private final JobId jobId = MRBuilderUtils.newJobId(ApplicationId.newInstance(1795, 3), 3);
  private final TaskAttemptId map = MRBuilderUtils.newTaskAttemptId(MRBuilderUtils.newTaskId(jobId, 3, TaskType.MAP),
      0);
  private final TaskAttemptId reduce = MRBuilderUtils.newTaskAttemptId(MRBuilderUtils.newTaskId(jobId, 1,
      TaskType.REDUCE), 0);
  private final TaskAttempt attempt = mock(TaskAttempt.class);
  private final List<TaskAttemptEvent> delivered = new ArrayList<>();
  private final FetchFailureGuardDispatcher dispatcher;

  FetchFailureGuardDispatcherTest() {
    AppContext context = mock(AppContext.class);
    Job job = mock(Job.class);
    Task task = mock(Task.class);
    when(context.getJob(jobId)).thenReturn(job);
    when(job.getTask(map.getTaskId())).thenReturn(task);
    when(task.getAttempt(map)).thenReturn(attempt);
    dispatcher = new FetchFailureGuardDispatcher(() -> context);
    dispatcher.register(TaskAttemptEventType.class, e -> delivered.add((TaskAttemptEvent) e));
  }

  @Test
  void fetchFailureVerdictOnAnAttemptBeingKilled_isDropped() {
    when(attempt.getState()).thenReturn(TaskAttemptState.KILLED);
    dispatcher.dispatch(new TaskAttemptTooManyFetchFailureEvent(map, reduce, "node1"));
    assertEquals(List.of(), delivered);
  }

  @Test
  void fetchFailureVerdictOnASucceededAttempt_reachesTheAttempt() {
    when(attempt.getState()).thenReturn(TaskAttemptState.SUCCEEDED);
    TaskAttemptEvent verdict = new TaskAttemptTooManyFetchFailureEvent(map, reduce, "node1");
    dispatcher.dispatch(verdict);
    assertEquals(List.of(verdict), delivered);
  }

  @Test
  void otherEventsOfAKilledAttempt_reachTheAttempt() {
    when(attempt.getState()).thenReturn(TaskAttemptState.KILLED);
    TaskAttemptEvent kill = new TaskAttemptEvent(map, TaskAttemptEventType.TA_KILL);
    dispatcher.dispatch(kill);
    assertEquals(List.of(kill), delivered);
  }
}
