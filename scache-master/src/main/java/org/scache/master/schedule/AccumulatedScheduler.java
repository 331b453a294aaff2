package org.scache.master.schedule;

import static org.scache.common.Checks.require;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import org.scache.master.predict.ReducePrediction;

/**
 * Algorithm 2 of the paper, Accumulated Heuristic Scheduling: schedules the shuffles of a reduce
 * stage with several shuffle dependencies one after another, each time adding the sizes earlier
 * shuffles placed for each reduce, and reports the re-shuffles needed when a reduce's host changes.
 *
 * <p>For reduce {@code r} with earlier data {@code prev} (M_SCHEDULE lines 3-8):
 *
 * <ul>
 *   <li>Line 4 is read as {@code r.size += prev.size} (the printed {@code ←} would drop the new
 *       shuffle's own size, and line 5's share would always be 1).
 *   <li>{@code prob} is a share of the reduce size (eq. 3), so after accumulation the new shuffle's
 *       share is rescaled, {@code r.prob × newSize / total}, before line 6 compares it with line
 *       5's {@code new_prob = prev.size / total}; if the new shuffle's largest-share host is the
 *       earlier host, both shares are held there and add up.
 *   <li>On {@code new_prob ≥ r.prob} the earlier host becomes the preferred host (line 6 keeps
 *       {@code ≥}).
 * </ul>
 *
 * <p>After Algorithm 1, every scheduled reduce records its accumulated size and new host; a reduce
 * whose host differs from its earlier host yields a {@link Reshuffle} (lines 10-14), including
 * moves of 0 bytes. Reduces absent from a later shuffle keep their state. Not thread-safe.
 */
public final class AccumulatedScheduler {
  private final HeuristicMinHeapScheduler scheduler;
  private final Map<Integer, AccumulatedReduce> shuffles = new HashMap<>();

  /** Algorithm 2 over Algorithm 1 with the locality swap. */
  public AccumulatedScheduler() {
    this(new HeuristicMinHeapScheduler());
  }

  /** Algorithm 2 over the given Algorithm 1 scheduler. */
  public AccumulatedScheduler(HeuristicMinHeapScheduler scheduler) {
    this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
  }

  /**
   * Schedules the next shuffle of the stage (M_SCHEDULE) and updates the accumulated state.
   *
   * @param mapCount the number of map tasks of this shuffle
   * @param hosts the candidate hosts, distinct
   * @param reduces this shuffle's predictions, distinct reduce ids
   */
  public AccumulatedSchedule schedule(int mapCount, List<String> hosts, List<ReducePrediction> reduces) {
    List<ReducePrediction> accumulated = accumulateAll(reduces);
    MinHeapSchedule schedule = scheduler.scheduleDetailed(mapCount, hosts, accumulated);
    return new AccumulatedSchedule(accumulated, schedule, record(accumulated, schedule.result()));
  }

  /**
   * As {@link #schedule}, for a stage whose tasks read ranges of consecutive reduces: the accumulated
   * reduces are placed in contiguous runs ({@link ContiguousRangeScheduler}), each run where most of its
   * bytes, this shuffle's and the earlier ones', already are; updates the accumulated state alike.
   */
  public HostPlacement scheduleContiguous(int mapCount, List<String> hosts, List<ReducePrediction> reduces) {
    List<ReducePrediction> accumulated = accumulateAll(reduces);
    HostPlacement result = new ContiguousRangeScheduler().schedule(mapCount, hosts, reduces, Map.copyOf(shuffles));
    record(accumulated, result);
    return result;
  }

  /** M_SCHEDULE lines 3-8 for every reduce of the next shuffle. */
  private List<ReducePrediction> accumulateAll(List<ReducePrediction> reduces) {
    ScheduleInputs.checkReduces(reduces);
    List<ReducePrediction> accumulated = new ArrayList<>(reduces.size());
    for (ReducePrediction reduce : reduces) {
      AccumulatedReduce prev = shuffles.get(reduce.reduceId());
      accumulated.add(prev == null ? reduce : accumulate(reduce, prev));
    }
    return accumulated;
  }

  /** Keeps every scheduled reduce's accumulated size and host; returns the re-shuffles (lines 10-14). */
  private List<Reshuffle> record(List<ReducePrediction> accumulated, HostPlacement result) {
    List<Reshuffle> reshuffles = new ArrayList<>();
    Map<Integer, AccumulatedReduce> updates = new TreeMap<>();
    for (ReducePrediction reduce : accumulated) {
      updates.put(reduce.reduceId(), new AccumulatedReduce(reduce.size(), result.hostOf(reduce.reduceId())));
    }
    for (Map.Entry<Integer, AccumulatedReduce> update : updates.entrySet()) {
      AccumulatedReduce prev = shuffles.get(update.getKey());
      String host = update.getValue().assignedHost();
      if (prev != null && !prev.assignedHost().equals(host)) {
        reshuffles.add(new Reshuffle(update.getKey(), prev.assignedHost(), host, prev.size()));
      }
    }
    shuffles.putAll(updates);
    return reshuffles;
  }

  /**
   * Adds what an earlier shuffle of the stage placed for reduce {@code reduceId} (its predicted size, on
   * {@code host}; a negative size, unknown, counts as 0) to the accumulated state without scheduling
   * anything: how a master that takes over a stage from a kept placement goes on where the one before it
   * stopped.
   */
  public void remember(int reduceId, double size, String host) {
    require(reduceId >= 0, "reduce id must not be negative but was %d", reduceId);
    Objects.requireNonNull(host, "host");
    AccumulatedReduce prev = shuffles.get(reduceId);
    shuffles.put(reduceId, new AccumulatedReduce((prev == null ? 0 : prev.size()) + Math.max(0, size), host));
  }

  /**
   * Records that reduce {@code reduceId}, placed before, now runs on {@code host} (moved once its shuffle's maps
   * were done), its accumulated size kept: the stage's next shuffle accumulates onto where it really is.
   */
  public void moved(int reduceId, String host) {
    Objects.requireNonNull(host, "host");
    AccumulatedReduce prev = shuffles.get(reduceId);
    if (prev != null) {
      shuffles.put(reduceId, new AccumulatedReduce(prev.size(), host));
    }
  }

  /** M_SCHEDULE lines 4-8 for one reduce. */
  static ReducePrediction accumulate(ReducePrediction reduce, AccumulatedReduce prev) {
    double total = reduce.size() + prev.size();
    if (total <= 0) {
      return new ReducePrediction(reduce.reduceId(), 0, 0, Optional.of(prev.assignedHost()));
    }
    double prevShare = prev.size() / total;
    double newShare = reduce.prob() * reduce.size() / total;
    if (reduce.hostId().filter(prev.assignedHost()::equals).isPresent()) {
      double share = Math.min(1.0, prevShare + newShare);
      return new ReducePrediction(reduce.reduceId(), total, share, Optional.of(prev.assignedHost()));
    }
    if (prevShare >= newShare) {
      return new ReducePrediction(reduce.reduceId(), total, prevShare, Optional.of(prev.assignedHost()));
    }
    return new ReducePrediction(reduce.reduceId(), total, Math.min(1.0, newShare), reduce.hostId());
  }

  /** The accumulated state of every reduce scheduled so far, by reduce id. */
  public Map<Integer, AccumulatedReduce> accumulated() {
    return Collections.unmodifiableMap(new TreeMap<>(shuffles));
  }

  /** The accumulated state of one reduce, empty if no shuffle has scheduled it yet. */
  public Optional<AccumulatedReduce> accumulated(int reduceId) {
    require(reduceId >= 0, "reduce id must not be negative but was %d", reduceId);
    return Optional.ofNullable(shuffles.get(reduceId));
  }
}
