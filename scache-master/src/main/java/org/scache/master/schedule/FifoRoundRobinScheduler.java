package org.scache.master.schedule;

import java.util.List;
import org.scache.master.predict.ReducePrediction;

/**
 * A framework-like FIFO baseline that ignores sizes and locality: reduces in ascending id order are
 * dealt round-robin over the hosts in list order.
 */
public final class FifoRoundRobinScheduler implements ReduceScheduler {

  @Override
  public HostPlacement schedule(int mapCount, List<String> hosts, List<ReducePrediction> reduces) {
    return ScheduleInputs.dealRoundRobin(mapCount, hosts, reduces, SchedulerOrders::byReduceId);
  }
}
