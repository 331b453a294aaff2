package org.scache.common.shuffle;

import java.util.Objects;
import org.scache.common.WorkerInfo;

/** Where one reduce of a placed shuffle runs: the worker its input is prefetched to, and its round there. */
public record ReduceAssignment(int reduceId, WorkerInfo worker, int round) {
  public ReduceAssignment {
    Objects.requireNonNull(worker, "worker");
  }
}
