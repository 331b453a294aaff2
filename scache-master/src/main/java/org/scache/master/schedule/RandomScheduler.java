package org.scache.master.schedule;

import static org.scache.common.Checks.require;

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
    int[] order = SchedulerOrders.byReduceId(ids);
    for (int k = n - 1; k > 0; k--) {
      int j = random.nextInt(k + 1);
      int tmp = order[k];
      order[k] = order[j];
      order[j] = tmp;
    }
    int[] assigned = new int[n];
    for (int k = 0; k < n; k++) {
      assigned[order[k]] = k % hosts.size();
    }
    return new ScheduleResult(hosts, ids, sizes, assigned);
  }
}
