package org.scache.benchmarks.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.scache.hadoop.frq.FrqJob;
import org.scache.hadoop.frq.Shuffle;

class FrqCalibrationTest {
  // 400 bytes of input and of shuffle, 4 waves, a 40 s map stage, links carrying 100 bytes/s: Hadoop's
  // overlap is the whole 4 s shuffle, SCache's (eq. 10) the last wave's 1 s
  private static NetnsFrq.Pair pair(int repetition, double kHadoop, double kScache) {
    FrqJob hadoop = new FrqJob(Shuffle.HADOOP, 400, 400, 4, 1.0, 40, 6, 1 + 40 + 6 + kHadoop * 4);
    FrqJob scache = new FrqJob(Shuffle.SCACHE, 400, 400, 4, 1.0, 40, 5, 1 + 40 + 5 + kScache * 1);
    return new NetnsFrq.Pair(400, repetition, FrqReport.fit(hadoop, 100), FrqReport.fit(scache, 100));
  }

  @Test
  void jobsThatWaitedTheSameShareOfTheirOverlap_arePredictedExactly() {
    List<NetnsFrq.Pair> pairs = List.of(pair(1, 1.0, 2.5), pair(2, 1.0, 2.5), pair(3, 1.0, 2.5));
    assertEquals(1.0, pairs.get(0).hadoop().observedK(), 1e-9);
    assertEquals(2.5, pairs.get(0).scache().observedK(), 1e-9);
    for (FrqCalibration.Held h : FrqCalibration.leaveOneOut(pairs)) {
      assertEquals(1.0, h.kHadoop(), 1e-9);
      assertEquals(2.5, h.kScache(), 1e-9);
      assertEquals(0, h.hadoopError(), 1e-9);
      assertEquals(0, h.scacheError(), 1e-9);
      assertEquals((1 + 40 + 6 + 2.5 * 1) / (1 + 40 + 6 + 1.0 * 4), h.predictedRatio(), 1e-9);
    }
  }

  @Test
  void eachRepetitionIsPredictedWithTheOthersK_neverItsOwn() {
    List<NetnsFrq.Pair> pairs = List.of(pair(1, 0.5, 2.0), pair(2, 1.5, 3.0));
    List<FrqCalibration.Held> held = FrqCalibration.leaveOneOut(pairs);
    assertEquals(1.5, held.get(0).kHadoop(), 1e-9);
    assertEquals(3.0, held.get(0).kScache(), 1e-9);
    assertEquals(0.5, held.get(1).kHadoop(), 1e-9);
    // the first Hadoop job waited 2 s, predicted 6 s: 4 s too long of 49 s
    assertEquals(4 / 49.0, held.get(0).hadoopError(), 1e-9);
    String report = FrqCalibration.format(pairs);
    assertTrue(report.contains("K = 1.00 on Hadoop's shuffle, 2.50 with SCache"), report);
  }

  @Test
  void withOneRepetitionOrNoLinkLimit_thereIsNothingToCalibrate() {
    assertEquals("", FrqCalibration.format(List.of(pair(1, 1.0, 2.5))));
    FrqJob hadoop = new FrqJob(Shuffle.HADOOP, 400, 400, 4, 1.0, 40, 6, 47);
    FrqJob scache = new FrqJob(Shuffle.SCACHE, 400, 400, 4, 1.0, 40, 5, 46);
    NetnsFrq.Pair unlimited = new NetnsFrq.Pair(400, 1, FrqReport.fit(hadoop, Double.POSITIVE_INFINITY),
        FrqReport.fit(scache, Double.POSITIVE_INFINITY));
    assertTrue(FrqCalibration.leaveOneOut(List.of(unlimited, unlimited)).isEmpty());
  }
}
