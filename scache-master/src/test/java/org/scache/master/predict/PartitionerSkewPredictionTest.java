package org.scache.master.predict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The paper's Fig. 5 comparison on synthetic data with 20 maps and 20 reduces: regression fitted on a
 * few observed maps against sampling of every split with {@code s = 3}.
 */
class PartitionerSkewPredictionTest {
  private static final int MAPS = 20;
  private static final int REDUCES = 20;
  private static final int OBSERVED = 4;

  private static int[] randomMaps(long seed) {
    return new SplittableRandom(seed).ints(0, MAPS).distinct().limit(OBSERVED).toArray();
  }

  @Test
  void rangePartitionedSkew_samplingErrorIsSmall_regressionVisiblyWorse() {
    for (long seed = 1; seed <= 10; seed++) {
      SyntheticShuffle shuffle = SyntheticShuffle.generate(MAPS, REDUCES, true, 0.95, 3, seed);
      double[] actual = shuffle.actualReduceSizes();
      List<ReducePrediction> sampled = new SamplingPredictor(REDUCES).predict(shuffle.samples, shuffle.splitHosts());
      List<ReducePrediction> regressed =
          new LinearRegressionPredictor(REDUCES).predict(shuffle.inputBytes, shuffle.observe(randomMaps(seed)));
      double samplingError = SyntheticShuffle.normalizedMeanAbsoluteError(sampled, actual);
      double regressionError = SyntheticShuffle.normalizedMeanAbsoluteError(regressed, actual);
      // the mean normalised size is 1 / 20 = 0.05
      assertTrue(samplingError < 0.005, "seed " + seed + ": sampling error " + samplingError);
      assertTrue(regressionError > 0.02, "seed " + seed + ": regression error " + regressionError);
      assertTrue(
          regressionError > 5 * samplingError,
          "seed " + seed + ": regression " + regressionError + " vs sampling " + samplingError);
    }
  }

  @Test
  void rangePartitionedSkew_sampling_findsDominantMapHostWithHighProb() {
    SyntheticShuffle shuffle = SyntheticShuffle.generate(MAPS, REDUCES, true, 0.95, 3, 99);
    List<ReducePrediction> sampled = new SamplingPredictor(REDUCES).predict(shuffle.samples, shuffle.splitHosts());
    for (int reduce = 0; reduce < REDUCES; reduce++) {
      assertEquals(Optional.of("host-" + reduce), sampled.get(reduce).hostId());
      assertTrue(sampled.get(reduce).prob() > 0.8, "prob of reduce " + reduce + ": " + sampled.get(reduce).prob());
    }
  }

  @Test
  void hashPartitioned_regressionOnFewMaps_isAccurate() {
    for (long seed = 1; seed <= 10; seed++) {
      SyntheticShuffle shuffle = SyntheticShuffle.generate(MAPS, REDUCES, false, 0, 3, seed);
      List<ReducePrediction> regressed =
          new LinearRegressionPredictor(REDUCES).predict(shuffle.inputBytes, shuffle.observe(randomMaps(seed)));
      double error = SyntheticShuffle.normalizedMeanAbsoluteError(regressed, shuffle.actualReduceSizes());
      assertTrue(error < 0.005, "seed " + seed + ": regression error " + error);
    }
  }
}
