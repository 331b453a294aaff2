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
    ObservedMapOutput[] byMap = index(mapInputBytes, observed);
    List<ObservedMapOutput> seen = new ArrayList<>();
    for (ObservedMapOutput output : byMap) {
      if (output != null) {
        seen.add(output);
      }
    }
    double[] x = new double[seen.size()];
    for (int k = 0; k < x.length; k++) {
      x[k] = mapInputBytes[seen.get(k).mapId()];
    }
    List<LinearFit> fits = new ArrayList<>(reduceCount);
    double[] y = new double[seen.size()];
    for (int reduce = 0; reduce < reduceCount; reduce++) {
      for (int k = 0; k < y.length; k++) {
        y[k] = seen.get(k).blockBytes(reduce);
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
    ObservedMapOutput[] byMap = index(mapInputBytes, observed);
    List<LinearFit> fits = fit(mapInputBytes, observed);
    List<Optional<String>> hosts = new ArrayList<>(byMap.length);
    for (ObservedMapOutput output : byMap) {
      hosts.add(output == null ? Optional.empty() : Optional.of(output.host()));
    }
    return HostShares.predictions(
        reduceCount,
        hosts,
        (map, reduce) ->
            byMap[map] != null
                ? byMap[map].blockBytes(reduce)
                : fits.get(reduce).predict(mapInputBytes[map]));
  }

  private ObservedMapOutput[] index(long[] mapInputBytes, List<ObservedMapOutput> observed) {
    Objects.requireNonNull(mapInputBytes, "mapInputBytes");
    Objects.requireNonNull(observed, "observed");
    require(mapInputBytes.length >= 1, "a shuffle has at least one map task");
    for (int map = 0; map < mapInputBytes.length; map++) {
      require(mapInputBytes[map] >= 0, "input size of map %d must not be negative but was %d", map, mapInputBytes[map]);
    }
    ObservedMapOutput[] byMap = new ObservedMapOutput[mapInputBytes.length];
    for (ObservedMapOutput output : observed) {
      Objects.requireNonNull(output, "observed map output");
      require(
          output.mapId() < mapInputBytes.length,
          "observed map %d is outside the %d map tasks",
          output.mapId(),
          mapInputBytes.length);
      require(
          output.reduceCount() == reduceCount,
          "map %d has %d reduce blocks but the shuffle has %d reduces",
          output.mapId(),
          output.reduceCount(),
          reduceCount);
      require(byMap[output.mapId()] == null, "map %d is observed twice", output.mapId());
      byMap[output.mapId()] = output;
    }
    return byMap;
  }
}
