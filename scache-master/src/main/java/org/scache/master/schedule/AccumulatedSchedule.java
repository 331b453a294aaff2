package org.scache.master.schedule;

import java.util.List;
import org.scache.master.predict.ReducePrediction;

/**
 * The outcome of one Algorithm 2 step: the reduces as accumulated with the earlier shuffles, the
 * Algorithm 1 schedule run on them, and the re-shuffles it requires.
 *
 * @param accumulatedReduces the inputs given to Algorithm 1 after accumulation
 * @param schedule the Algorithm 1 outcome
 * @param reshuffles the reduces whose host changed, in reduce id order
 */
public record AccumulatedSchedule(
    List<ReducePrediction> accumulatedReduces, MinHeapSchedule schedule, List<Reshuffle> reshuffles) {

  /** Copies the lists. */
  public AccumulatedSchedule {
    accumulatedReduces = List.copyOf(accumulatedReduces);
    reshuffles = List.copyOf(reshuffles);
  }

  /** The final placement. */
  public HostPlacement result() {
    return schedule.result();
  }
}
