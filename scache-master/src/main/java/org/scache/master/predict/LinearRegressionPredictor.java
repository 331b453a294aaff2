package org.scache.master.predict;

import static org.scache.common.Checks.require;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * Predicts reduce sizes of a hash-partitioned shuffle from the map outputs observed so far by fitting
 * eq. 1, {@code BlockSize_ji = a_i × inputSize_j + b_i}, per reduce {@code i} (see {@link
 * LinearFit#leastSquares} for the degenerate cases: one observation or equal input sizes fall back
 * to the mean output/input ratio, no observation predicts 0).
 *
 * <p>{@code reduceSize_i} is the sum of the stored blocks plus the (never negative) predicted
 * blocks of the maps whose output is not stored, whose input sizes are known up front. Stored blocks sit on
 * the host that holds them; predicted blocks have no host yet, so {@code prob} is the largest
 * share of the predicted total held by one host. The fit and the shares are computed from sums
 * ({@link RegressionSums}, {@link HeldBytes}), never from a map × reduce matrix. Stateless and thread-safe.
 */
public final class LinearRegressionPredictor {
  private final int reduceCount;

  /** A predictor for a shuffle with {@code reduceCount} reduce partitions. */
  public LinearRegressionPredictor(int reduceCount) {
    require(reduceCount >= 1, "reduce count must be at least 1 but was %d", reduceCount);
    this.reduceCount = reduceCount;
  }

  /** The number of reduce partitions. */
  public int reduceCount() {
    return reduceCount;
  }

  /**
   * Fits eq. 1 for every reduce id.
   *
   * @param mapInputBytes the input size of every map task, indexed by map id
   * @param observed the outputs of the finished maps, at most one per map id
   * @return one fit per reduce id, in reduce id order
   */
  public List<LinearFit> fit(long[] mapInputBytes, List<ObservedMapOutput> observed) {
    Observations o = observations(mapInputBytes, observed);
    List<LinearFit> fits = new ArrayList<>(reduceCount);
    for (int reduce = 0; reduce < reduceCount; reduce++) {
      fits.add(o.sums.fit(reduce));
    }
    return Collections.unmodifiableList(fits);
  }

  /**
   * Predicts every reduce's size, largest host share and that host.
   *
   * @param mapInputBytes the input size of every map task, indexed by map id
   * @param observed the outputs of the finished maps, at most one per map id
   * @return one prediction per reduce id, in reduce id order
   */
  public List<ReducePrediction> predict(long[] mapInputBytes, List<ObservedMapOutput> observed) {
    Observations o = observations(mapInputBytes, observed);
    return predict(mapInputBytes, o.sums, o.held, o.stored);
  }

  /**
   * As {@link #predict(long[], List)}, from sums: eq. 1 fitted on {@code sums} (the maps observed so far),
   * {@code held} the stored blocks' bytes by holder and reduce, {@code stored[map]} whether a map's output is among
   * them (the others are predicted from their input size).
   */
  public List<ReducePrediction> predict(long[] mapInputBytes, RegressionSums sums, HeldBytes held,
      boolean[] stored) {
    checkInputs(mapInputBytes);
    require(stored.length >= mapInputBytes.length, "%d maps' storage given for %d maps", stored.length,
        mapInputBytes.length);
    int[] names = holdersByName(held);
    // the maps to predict: as a linear fit is monotone, one clamped at zero nowhere in [least, most] input sums up
    // as their count and input total, and only a fit below zero somewhere there is summed map by map
    int unstored = 0;
    double unstoredInput = 0;
    long least = Long.MAX_VALUE;
    long most = Long.MIN_VALUE;
    for (int map = 0; map < mapInputBytes.length; map++) {
      if (!stored[map]) {
        unstored++;
        unstoredInput += mapInputBytes[map];
        least = Math.min(least, mapInputBytes[map]);
        most = Math.max(most, mapInputBytes[map]);
      }
    }
    List<ReducePrediction> out = new ArrayList<>(reduceCount);
    for (int reduce = 0; reduce < reduceCount; reduce++) {
      LinearFit fit = sums.fit(reduce);
      double total = 0;
      if (unstored > 0 && fit.slope() * least + fit.intercept() >= 0 && fit.slope() * most + fit.intercept() >= 0) {
        total = fit.slope() * unstoredInput + fit.intercept() * unstored;
      } else if (unstored > 0) {
        for (int map = 0; map < mapInputBytes.length; map++) {
          if (!stored[map]) {
            total += fit.predict(mapInputBytes[map]);
          }
        }
      }
      int best = -1;
      long bestBytes = 0;
      for (int h : names) {
        long bytes = held.held(h, reduce);
        total += bytes;
        if (bytes > bestBytes) {
          best = h;
          bestBytes = bytes;
        }
      }
      if (best < 0 || total <= 0) {
        out.add(ReducePrediction.withoutHost(reduce, Math.max(0, total)));
      } else {
        out.add(ReducePrediction.onHost(reduce, total, Math.min(1.0, bestBytes / total), held.name(best)));
      }
    }
    return List.copyOf(out);
  }

  /** The holders' indices in the order of their names, so that of equal shares the smallest name wins. */
  private static int[] holdersByName(HeldBytes held) {
    List<Integer> order = new ArrayList<>(held.holders());
    for (int h = 0; h < held.holders(); h++) {
      order.add(h);
    }
    order.sort((a, b) -> held.name(a).compareTo(held.name(b)));
    return order.stream().mapToInt(Integer::intValue).toArray();
  }

  private record Observations(RegressionSums sums, HeldBytes held, boolean[] stored) {}

  private Observations observations(long[] mapInputBytes, List<ObservedMapOutput> observed) {
    checkInputs(mapInputBytes);
    Objects.requireNonNull(observed, "observed");
    RegressionSums sums = new RegressionSums();
    HeldBytes held = new HeldBytes();
    boolean[] stored = new boolean[mapInputBytes.length];
    for (ObservedMapOutput output : observed) {
      Objects.requireNonNull(output, "observed map output");
      require(output.reduceCount() == reduceCount, "map %d has %d reduce blocks but the shuffle has %d reduces",
          output.mapId(), output.reduceCount(), reduceCount);
      int map = output.mapId();
      require(map >= 0 && map < mapInputBytes.length, "observed map %d is outside the %d map tasks", map,
          mapInputBytes.length);
      require(!stored[map], "map %d is observed twice", map);
      stored[map] = true;
      sums.addMap(mapInputBytes[map]);
      int holder = held.indexOf(output.host());
      for (int reduce = 0; reduce < reduceCount; reduce++) {
        long bytes = output.blockBytes(reduce);
        sums.addBlock(mapInputBytes[map], reduce, bytes);
        if (bytes > 0) {
          held.add(holder, reduce, bytes);
        }
      }
    }
    return new Observations(sums, held, stored);
  }

  private static void checkInputs(long[] mapInputBytes) {
    Objects.requireNonNull(mapInputBytes, "mapInputBytes");
    require(mapInputBytes.length >= 1, "a shuffle has at least one map task");
    for (int map = 0; map < mapInputBytes.length; map++) {
      require(mapInputBytes[map] >= 0, "input size of map %d must not be negative but was %d", map, mapInputBytes[map]);
    }
  }
}
