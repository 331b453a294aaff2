package org.scache.master.predict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LinearRegressionPredictorTest {
  private static final double EPS = 1e-9;

  private static ObservedMapOutput map(int id, String host, long... blocks) {
    return new ObservedMapOutput(id, host, blocks);
  }

  @Test
  void predict_oneObservation_scalesUnobservedMapsByItsRatio() {
    LinearRegressionPredictor predictor = new LinearRegressionPredictor(2);
    List<ReducePrediction> out = predictor.predict(new long[] {100, 200, 300}, List.of(map(0, "h1", 10, 0)));
    assertEquals(60, out.get(0).size(), EPS);
    assertEquals(10.0 / 60, out.get(0).prob(), EPS);
    assertEquals(Optional.of("h1"), out.get(0).hostId());
    assertEquals(ReducePrediction.withoutHost(1, 0), out.get(1));
  }

  @Test
  void predict_allInputsEqual_usesMeanRatio() {
    LinearRegressionPredictor predictor = new LinearRegressionPredictor(1);
    List<ReducePrediction> out =
        predictor.predict(new long[] {100, 100, 100, 100}, List.of(map(0, "h1", 10), map(1, "h2", 30)));
    assertEquals(80, out.get(0).size(), EPS); // 10 + 30 + 2 × (100 × 40 / 200)
    assertEquals(30.0 / 80, out.get(0).prob(), EPS);
    assertEquals(Optional.of("h2"), out.get(0).hostId());
  }

  @Test
  void predict_noObservation_predictsEmptyReducesWithoutHost() {
    List<ReducePrediction> out = new LinearRegressionPredictor(3).predict(new long[] {5, 6}, List.of());
    assertEquals(3, out.size());
    for (int reduce = 0; reduce < 3; reduce++) {
      assertEquals(ReducePrediction.withoutHost(reduce, 0), out.get(reduce));
    }
  }

  @Test
  void predict_decreasingFit_neverPredictsNegativeBlocks() {
    // slope -1, intercept 200: the unobserved 300-byte map would get -100 bytes; it gets 0
    LinearRegressionPredictor predictor = new LinearRegressionPredictor(1);
    List<ReducePrediction> out =
        predictor.predict(new long[] {100, 200, 300}, List.of(map(0, "h1", 100), map(1, "h2", 0)));
    assertEquals(100, out.get(0).size(), EPS);
    assertEquals(1.0, out.get(0).prob(), EPS);
  }

  @Test
  void predict_mapsOnSameHost_shareIsSummedPerHost() {
    LinearRegressionPredictor predictor = new LinearRegressionPredictor(1);
    List<ReducePrediction> out =
        predictor.predict(
            new long[] {1, 1, 1}, List.of(map(0, "h1", 30), map(1, "h1", 30), map(2, "h2", 40)));
    assertEquals(100, out.get(0).size(), EPS);
    assertEquals(0.6, out.get(0).prob(), EPS);
    assertEquals(Optional.of("h1"), out.get(0).hostId());
  }

  @Test
  void predict_allDataFromOneMap_probIsOne() {
    LinearRegressionPredictor predictor = new LinearRegressionPredictor(2);
    List<ReducePrediction> out =
        predictor.predict(new long[] {10, 20}, List.of(map(0, "h1", 0, 7), map(1, "h2", 9, 0)));
    assertEquals(ReducePrediction.onHost(0, 9, 1.0, "h2"), out.get(0));
    assertEquals(ReducePrediction.onHost(1, 7, 1.0, "h1"), out.get(1));
  }

  @Test
  void predict_equalHostShares_lexicographicallySmallestHostWins() {
    LinearRegressionPredictor predictor = new LinearRegressionPredictor(1);
    List<ReducePrediction> out = predictor.predict(new long[] {1, 1}, List.of(map(0, "w2", 5), map(1, "w1", 5)));
    assertEquals(Optional.of("w1"), out.get(0).hostId());
    assertEquals(0.5, out.get(0).prob(), EPS);
  }

  @Test
  void predict_exactlyLinearRandomData_isExact() {
    SplittableRandom random = new SplittableRandom(17);
    for (int trial = 0; trial < 1000; trial++) {
      int maps = 2 + random.nextInt(30);
      int reduces = 1 + random.nextInt(8);
      long[] inputs = new long[maps];
      for (int j = 0; j < maps; j++) {
        inputs[j] = random.nextLong(1, 1L << 32);
      }
      inputs[1] = inputs[0] + 1 + random.nextInt(1000); // two distinct sizes among the observed
      long[] a = new long[reduces];
      long[] b = new long[reduces];
      for (int i = 0; i < reduces; i++) {
        a[i] = random.nextInt(0, 5);
        b[i] = random.nextInt(0, 10_000);
      }
      int observedCount = 2 + random.nextInt(maps - 1);
      List<ObservedMapOutput> observed = new ArrayList<>();
      for (int j = 0; j < observedCount; j++) {
        long[] blocks = new long[reduces];
        for (int i = 0; i < reduces; i++) {
          blocks[i] = a[i] * inputs[j] + b[i];
        }
        observed.add(new ObservedMapOutput(j, "h" + random.nextInt(4), blocks));
      }
      List<ReducePrediction> out = new LinearRegressionPredictor(reduces).predict(inputs, observed);
      for (int i = 0; i < reduces; i++) {
        double expected = 0;
        for (long input : inputs) {
          expected += (double) a[i] * input + b[i];
        }
        assertEquals(expected, out.get(i).size(), 1e-9 * expected, "trial " + trial + " reduce " + i);
        assertTrue(out.get(i).prob() <= 1.0);
      }
    }
  }

  @Test
  void predict_invalidObservations_throwWithMessage() {
    LinearRegressionPredictor predictor = new LinearRegressionPredictor(2);
    IllegalArgumentException twice =
        assertThrows(
            IllegalArgumentException.class,
            () -> predictor.predict(new long[] {1, 2}, List.of(map(0, "h", 1, 1), map(0, "h", 1, 1))));
    assertEquals("map 0 is observed twice", twice.getMessage());
    assertThrows(IllegalArgumentException.class, () -> predictor.predict(new long[] {1}, List.of(map(1, "h", 1, 1))));
    assertThrows(IllegalArgumentException.class, () -> predictor.predict(new long[] {1}, List.of(map(0, "h", 1))));
    assertThrows(IllegalArgumentException.class, () -> predictor.predict(new long[] {-1}, List.of()));
    assertThrows(IllegalArgumentException.class, () -> predictor.predict(new long[0], List.of()));
  }

  @Test
  void observedMapOutput_negativeBlockOrBlankHost_throws() {
    assertThrows(IllegalArgumentException.class, () -> map(0, "h", -1));
    assertThrows(IllegalArgumentException.class, () -> map(0, " ", 1));
  }
}
