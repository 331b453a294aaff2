package org.scache.sampling;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class WeightedSamplingPredictorTest {
  private static final double EPS = 1e-9;

  @Test
  void constructor_defaultSamplesPerReduce_isThree() {
    WeightedSamplingPredictor predictor = new WeightedSamplingPredictor(4);
    assertEquals(3, predictor.samplesPerReduce());
    assertEquals(12, predictor.sampleCapacity());
  }

  @Test
  void predict_fullSplits_appliesEquationTwo() {
    // s = 2, p = 2: capacity 4. Split 0: 400 bytes, samples {3, 1}; split 1: 800 bytes, {0, 4}.
    WeightedSamplingPredictor predictor = new WeightedSamplingPredictor(2, 2);
    SamplingEstimate estimate =
        predictor.predict(List.of(SplitSample.of(400, 4, new int[] {3, 1}), SplitSample.of(800, 4, new int[] {0, 4})));
    assertEquals(300, estimate.blockSize(0, 0), EPS);
    assertEquals(100, estimate.blockSize(0, 1), EPS);
    assertEquals(0, estimate.blockSize(1, 0), EPS);
    assertEquals(800, estimate.blockSize(1, 1), EPS);
    assertArrayEquals(new double[] {300, 900}, estimate.reduceSizes(), EPS);
    assertEquals(1.0, estimate.prob(0), EPS);
    assertEquals(OptionalInt.of(0), estimate.largestSplit(0));
    assertEquals(800.0 / 900, estimate.prob(1), EPS);
    assertEquals(OptionalInt.of(1), estimate.largestSplit(1));
  }

  @Test
  void predict_splitSmallerThanCapacity_dividesByRecordsActuallySampled() {
    // capacity 3 × 2 = 6 but the split only had 2 records: each stands for 50 of its 100 bytes.
    WeightedSamplingPredictor predictor = new WeightedSamplingPredictor(2);
    SamplingEstimate estimate = predictor.predict(List.of(SplitSample.of(100, 6, new int[] {1, 1})));
    assertEquals(50, estimate.reduceSize(0), EPS);
    assertEquals(50, estimate.reduceSize(1), EPS);
  }

  @Test
  void predict_emptySplit_contributesNothing() {
    WeightedSamplingPredictor predictor = new WeightedSamplingPredictor(2);
    SamplingEstimate estimate = predictor.predict(List.of(SplitSample.of(0, 6, new int[] {0, 0})));
    assertArrayEquals(new double[] {0, 0}, estimate.reduceSizes(), EPS);
    assertEquals(0, estimate.prob(0), EPS);
    assertEquals(OptionalInt.empty(), estimate.largestSplit(0));
  }

  @Test
  void predict_allDataFromOneSplit_probIsOne() {
    WeightedSamplingPredictor predictor = new WeightedSamplingPredictor(3, 1);
    SamplingEstimate estimate =
        predictor.predict(
            List.of(
                SplitSample.of(10, 3, new int[] {0, 3, 0}),
                SplitSample.of(20, 3, new int[] {0, 0, 3}),
                SplitSample.of(30, 3, new int[] {0, 0, 3})));
    assertEquals(1.0, estimate.prob(1), EPS);
    assertEquals(OptionalInt.of(0), estimate.largestSplit(1));
    assertEquals(0.6, estimate.prob(2), EPS);
    assertEquals(OptionalInt.of(2), estimate.largestSplit(2));
  }

  @Test
  void predict_tiedSplits_lowestSplitIndexIsLargest() {
    WeightedSamplingPredictor predictor = new WeightedSamplingPredictor(1, 2);
    SamplingEstimate estimate =
        predictor.predict(List.of(SplitSample.of(10, 2, new int[] {2}), SplitSample.of(10, 2, new int[] {2})));
    assertEquals(OptionalInt.of(0), estimate.largestSplit(0));
    assertEquals(0.5, estimate.prob(0), EPS);
  }

  @Test
  void predict_mismatchedReduceCountOrCapacity_throws() {
    WeightedSamplingPredictor predictor = new WeightedSamplingPredictor(2);
    IllegalArgumentException reduces =
        assertThrows(
            IllegalArgumentException.class,
            () -> predictor.predict(List.of(SplitSample.of(1, 6, new int[] {1, 1, 1}))));
    assertTrue(reduces.getMessage().contains("split 0 has 3 reduces but this predictor expects 2"));
    assertThrows(
        IllegalArgumentException.class, () -> predictor.predict(List.of(SplitSample.of(1, 5, new int[] {1, 1}))));
  }

  @Test
  void predict_randomSplits_blocksOfEveryNonEmptySplitSumToItsInputSize() {
    SplittableRandom random = new SplittableRandom(11);
    for (int trial = 0; trial < 2000; trial++) {
      int reduces = 1 + random.nextInt(20);
      int s = 1 + random.nextInt(4);
      WeightedSamplingPredictor predictor = new WeightedSamplingPredictor(reduces, s);
      List<SplitSample> splits = new ArrayList<>();
      long totalNonEmpty = 0;
      for (int map = 0, maps = 1 + random.nextInt(10); map < maps; map++) {
        int records = random.nextInt(2 * predictor.sampleCapacity());
        long bytes = random.nextLong(1_000_000);
        int[] ids = random.ints(Math.min(records, predictor.sampleCapacity()), 0, reduces).toArray();
        splits.add(SplitSample.fromPartitionIds(bytes, predictor.sampleCapacity(), reduces, ids));
        totalNonEmpty += ids.length > 0 ? bytes : 0;
      }
      SamplingEstimate estimate = predictor.predict(splits);
      double sum = 0;
      for (double size : estimate.reduceSizes()) {
        sum += size;
      }
      assertEquals(totalNonEmpty, sum, 1e-6 * Math.max(1, totalNonEmpty), "trial " + trial);
      for (int reduce = 0; reduce < reduces; reduce++) {
        assertTrue(estimate.prob(reduce) >= 0 && estimate.prob(reduce) <= 1);
      }
    }
  }

  @Test
  void reduceSize_reduceOutOfRange_throws() {
    SamplingEstimate estimate = new WeightedSamplingPredictor(2).predict(List.of());
    assertThrows(IllegalArgumentException.class, () -> estimate.reduceSize(2));
    assertThrows(IllegalArgumentException.class, () -> estimate.blockSize(0, 0));
  }
}
