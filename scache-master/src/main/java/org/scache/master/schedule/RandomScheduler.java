package org.scache.master.schedule;

import java.util.List;
import java.util.Objects;
import java.util.random.RandomGenerator;
import org.scache.master.predict.ReducePrediction;

/**
 * The paper's random-mapping baseline, "randomly and evenly": a uniformly random permutation of the
 * reduces is dealt round-robin over the hosts, so host reduce counts differ by at most one. Not
 * thread-safe (it draws from the injected generator).
 */
public final class RandomScheduler implements ReduceScheduler {
  private final RandomGenerator random;

  /** A scheduler drawing from {@code random}; seed it for reproducible placements. */
  public RandomScheduler(RandomGenerator random) {
    this.random = Objects.requireNonNull(random, "random");
  }

  @Override
  public HostPlacement schedule(int mapCount, List<String> hosts, List<ReducePrediction> reduces) {
    return ScheduleInputs.dealRoundRobin(mapCount, hosts, reduces, ids -> {
      int[] order = SchedulerOrders.byReduceId(ids);
      for (int k = order.length - 1; k > 0; k--) {
        int j = random.nextInt(k + 1);
        int tmp = order[k];
        order[k] = order[j];
        order[j] = tmp;
      }
      return order;
    });
  }
}
