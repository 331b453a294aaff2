package org.scache.common.shuffle;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.scache.common.WorkerInfo;

/**
 * The master's placement of a shuffle's reduces (paper III-B): for every reduce, the worker it
 * should run beside and its round there, and the policy that placed them.
 */
public record ShufflePlacement(String appId, int shuffleId, String policy, List<ReduceAssignment> assignments) {
  public ShufflePlacement {
    Objects.requireNonNull(appId, "appId");
    Objects.requireNonNull(policy, "policy");
    assignments = List.copyOf(assignments);
  }

  /** The assignment of reduce {@code reduceId}, if the placement names it. */
  public Optional<ReduceAssignment> assignment(int reduceId) {
    if (reduceId >= 0 && reduceId < assignments.size() && assignments.get(reduceId).reduceId() == reduceId) {
      return Optional.of(assignments.get(reduceId));
    }
    return assignments.stream().filter(a -> a.reduceId() == reduceId).findFirst();
  }

  /** The worker reduce {@code reduceId} is placed beside, if the placement names it. */
  public Optional<WorkerInfo> workerOf(int reduceId) {
    return assignment(reduceId).map(ReduceAssignment::worker);
  }

  /** This placement with reduce {@code reduceId} moved to another worker and round (a re-shuffle). */
  public ShufflePlacement withMoved(int reduceId, WorkerInfo to, int round) {
    List<ReduceAssignment> list = new ArrayList<>(assignments.size());
    for (ReduceAssignment a : assignments) {
      list.add(a.reduceId() == reduceId ? a.movedTo(to, round) : a);
    }
    return new ShufflePlacement(appId, shuffleId, policy, list);
  }
}
