package org.scache.master.predict;

import static org.scache.common.Checks.require;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Predicts reduce sizes of a hash-partitioned shuffle from the map outputs observed so far by fitting
 * eq. 1, {@code BlockSize_ji = a_i × inputSize_j + b_i}, per reduce {@code i} (see {@link
 * LinearFit#leastSquares} for the degenerate cases: one observation or equal input sizes fall back
 * to the mean output/input ratio, no observation predicts 0).
 *
 * <p>{@code reduceSize_i} is the sum of the observed blocks plus the (never negative) predicted
 * blocks of the maps not yet observed, whose input sizes are known up front. Observed blocks sit on
 * the host that ran their map; predicted blocks have no host yet, so {@code prob} is the largest
 * share of the predicted total held by one host among the observed maps. Stateless and thread-safe.
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
    return fit(mapInputBytes, checked(observed));
  }

  /** As {@link #fit(long[], List)}, on observations read in place; holds one reduce's observations at a time. */
  public List<LinearFit> fit(long[] mapInputBytes, ObservedOutputs observed) {
    return fit(mapInputBytes, observed, observedMaps(mapInputBytes, observed));
  }

  /** Eq. 1 per reduce over the observed maps {@code seen}, checked. */
  private List<LinearFit> fit(long[] mapInputBytes, ObservedOutputs observed, int[] seen) {
    double[] x = new double[seen.length];
    for (int k = 0; k < x.length; k++) {
      x[k] = mapInputBytes[seen[k]];
    }
    List<LinearFit> fits = new ArrayList<>(reduceCount);
    double[] y = new double[seen.length];
    for (int reduce = 0; reduce < reduceCount; reduce++) {
      for (int k = 0; k < y.length; k++) {
        y[k] = observed.blockBytes(seen[k], reduce);
      }
      fits.add(LinearFit.leastSquares(x, y));
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
    return predict(mapInputBytes, checked(observed));
  }

  /**
   * As {@link #predict(long[], List)}, on observations read in place: besides the predictions it holds the fits and
   * one entry per map, never a map × reduce matrix.
   */
  public List<ReducePrediction> predict(long[] mapInputBytes, ObservedOutputs observed) {
    int[] seen = observedMaps(mapInputBytes, observed);
    List<LinearFit> fits = fit(mapInputBytes, observed, seen);
    boolean[] isObserved = new boolean[mapInputBytes.length];
    List<Optional<String>> hosts = new ArrayList<>(Collections.nCopies(mapInputBytes.length, Optional.empty()));
    for (int map : seen) {
      isObserved[map] = true;
      hosts.set(map, Optional.of(observed.host(map)));
    }
    return HostShares.predictions(
        reduceCount,
        hosts,
        (map, reduce) ->
            isObserved[map]
                ? observed.blockBytes(map, reduce)
                : fits.get(reduce).predict(mapInputBytes[map]));
  }

  private int[] observedMaps(long[] mapInputBytes, ObservedOutputs observed) {
    Objects.requireNonNull(mapInputBytes, "mapInputBytes");
    Objects.requireNonNull(observed, "observed");
    require(mapInputBytes.length >= 1, "a shuffle has at least one map task");
    for (int map = 0; map < mapInputBytes.length; map++) {
      require(mapInputBytes[map] >= 0, "input size of map %d must not be negative but was %d", map, mapInputBytes[map]);
    }
    int[] maps = observed.maps();
    for (int k = 0; k < maps.length; k++) {
      require(maps[k] >= 0 && maps[k] < mapInputBytes.length, "observed map %d is outside the %d map tasks", maps[k],
          mapInputBytes.length);
      require(k == 0 || maps[k] > maps[k - 1], "observed maps must be ascending and distinct: %d after %d", maps[k],
          k == 0 ? -1 : maps[k - 1]);
    }
    return maps;
  }

  private ObservedOutputs checked(List<ObservedMapOutput> observed) {
    Objects.requireNonNull(observed, "observed");
    for (ObservedMapOutput output : observed) {
      Objects.requireNonNull(output, "observed map output");
      require(
          output.reduceCount() == reduceCount,
          "map %d has %d reduce blocks but the shuffle has %d reduces",
          output.mapId(),
          output.reduceCount(),
          reduceCount);
    }
    return ObservedOutputs.of(observed);
  }
}
