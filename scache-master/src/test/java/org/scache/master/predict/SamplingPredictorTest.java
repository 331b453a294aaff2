package org.scache.master.predict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.scache.sampling.SplitSample;
import org.scache.sampling.WeightedSamplingPredictor;

class SamplingPredictorTest {
  private static final double EPS = 1e-9;

  @Test
  void predict_splitsOnSameHost_shareIsSummedPerHost() {
    SamplingPredictor predictor = new SamplingPredictor(new WeightedSamplingPredictor(2, 1));
    List<ReducePrediction> out =
        predictor.predict(
            List.of(
                SplitSample.of(100, 2, new int[] {2, 0}),
                SplitSample.of(100, 2, new int[] {1, 1}),
                SplitSample.of(300, 2, new int[] {0, 2})),
            List.of(Optional.of("a"), Optional.of("a"), Optional.of("b")));
    assertEquals(ReducePrediction.onHost(0, 150, 1.0, "a"), out.get(0));
    assertEquals(350, out.get(1).size(), EPS);
    assertEquals(300.0 / 350, out.get(1).prob(), EPS);
    assertEquals(Optional.of("b"), out.get(1).hostId());
  }

  @Test
  void predict_unknownHosts_countInSizeButNotInShare() {
    SamplingPredictor predictor = new SamplingPredictor(new WeightedSamplingPredictor(1, 2));
    List<ReducePrediction> out =
        predictor.predict(
            List.of(SplitSample.of(300, 2, new int[] {2}), SplitSample.of(100, 2, new int[] {2})),
            List.of(Optional.empty(), Optional.of("b")));
    assertEquals(ReducePrediction.onHost(0, 400, 0.25, "b"), out.get(0));
  }

  @Test
  void predict_noHostKnown_predictionsHaveNoHost() {
    SamplingPredictor predictor = new SamplingPredictor(2);
    List<ReducePrediction> out =
        predictor.predict(List.of(SplitSample.of(60, 6, new int[] {3, 3})), List.of(Optional.empty()));
    assertEquals(ReducePrediction.withoutHost(0, 30), out.get(0));
    assertEquals(ReducePrediction.withoutHost(1, 30), out.get(1));
  }

  @Test
  void predict_hostListOfOtherLength_throws() {
    SamplingPredictor predictor = new SamplingPredictor(2);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> predictor.predict(List.of(SplitSample.of(60, 6, new int[] {3, 3})), List.of()));
    assertEquals("0 split hosts given for 1 splits", e.getMessage());
  }

  @Test
  void sampleCapacity_defaultS_isThreeTimesReduces() {
    assertEquals(60, new SamplingPredictor(20).sampleCapacity());
  }
}
