package org.scache.common.shuffle;

import java.util.Objects;
import org.scache.common.WorkerInfo;

/**
 * Where one reduce of a placed shuffle runs: the worker its input is prefetched to, its round there, and
 * the size of its input the master predicted when it placed it ({@link #UNKNOWN_SIZE} when not given),
 * which tells a framework how much a read from elsewhere would cost.
 */
public record ReduceAssignment(int reduceId, WorkerInfo worker, int round, long predictedBytes) {
  /** The predicted input size of an assignment made without one. */
  public static final long UNKNOWN_SIZE = -1;

  public ReduceAssignment {
    Objects.requireNonNull(worker, "worker");
    if (predictedBytes < UNKNOWN_SIZE) {
      throw new IllegalArgumentException("predicted bytes " + predictedBytes);
    }
  }

  /** An assignment without a predicted size. */
  public ReduceAssignment(int reduceId, WorkerInfo worker, int round) {
    this(reduceId, worker, round, UNKNOWN_SIZE);
  }

  /** This assignment on worker {@code to}, in {@code newRound}, its predicted size kept. */
  public ReduceAssignment movedTo(WorkerInfo to, int newRound) {
    return new ReduceAssignment(reduceId, to, newRound, predictedBytes);
  }
}
