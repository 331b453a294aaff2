package org.scache.master.schedule;

import static org.scache.common.Checks.require;

import java.util.List;
import org.scache.master.predict.ReducePrediction;

/**
 * A framework-like FIFO baseline that ignores sizes and locality: reduces in ascending id order are
 * dealt round-robin over the hosts in list order.
 */
public final class FifoRoundRobinScheduler implements ReduceScheduler {

  @Override
  public ScheduleResult schedule(int mapCount, List<String> hosts, List<ReducePrediction> reduces) {
    require(mapCount >= 1, "map count must be at least 1 but was %d", mapCount);
    ScheduleInputs.indexHosts(hosts);
    ScheduleInputs.checkReduces(reduces);
    int n = reduces.size();
    int[] ids = new int[n];
    double[] sizes = new double[n];
    for (int i = 0; i < n; i++) {
      ids[i] = reduces.get(i).reduceId();
      sizes[i] = reduces.get(i).size();
    }
    int[] byId = SchedulerOrders.byReduceId(ids);
    int[] assigned = new int[n];
    for (int k = 0; k < n; k++) {
      assigned[byId[k]] = k % hosts.size();
    }
    return new ScheduleResult(hosts, ids, sizes, assigned);
  }
}
