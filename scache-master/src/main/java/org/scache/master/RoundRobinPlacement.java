package org.scache.master;

import java.util.ArrayList;
import java.util.List;
import org.scache.common.Checks;
import org.scache.common.ShuffleKey;
import org.scache.common.WorkerInfo;
import org.scache.common.protocol.Message.ReduceAssignment;
import org.scache.common.protocol.Message.ScheduleResult;

/**
 * Plain round-robin placement: reduce {@code r} goes to the {@code r mod n}-th live worker (by id)
 * and runs in round {@code r / n} there. Blind to sizes and locality; the baseline placement.
 */
final class RoundRobinPlacement {
  static final String NAME = "round-robin";

  private RoundRobinPlacement() {}

  static ScheduleResult place(ShuffleKey shuffle, int numReduces, List<WorkerInfo> workers) {
    Checks.require(!workers.isEmpty(), "no workers to place %s on", shuffle);
    List<ReduceAssignment> list = new ArrayList<>(numReduces);
    for (int r = 0; r < numReduces; r++) {
      list.add(new ReduceAssignment(r, workers.get(r % workers.size()), r / workers.size()));
    }
    return new ScheduleResult(shuffle.appId(), shuffle.shuffleId(), NAME, list);
  }
}
