package org.scache.master.predict;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;

class RegressionSumsTest {
  @Test
  void fitFromSums_equalsTheLeastSquaresFitOverThePoints_forInputsFarApartOrClose() {
    Random random = new Random(11);
    for (int trial = 0; trial < 200; trial++) {
      int n = 1 + random.nextInt(50);
      long base = random.nextLong(1, 1L << 40);
      long spread = trial % 2 == 0 ? 1000 : 1L << 36;
      double[] x = new double[n];
      double[] y = new double[n];
      RegressionSums sums = new RegressionSums();
      for (int i = 0; i < n; i++) {
        long input = base + random.nextLong(spread);
        long block = random.nextInt(1 << 20);
        x[i] = input;
        y[i] = block;
        sums.addMap(input);
        sums.addBlock(input, 3, block);
      }
      LinearFit expected = LinearFit.leastSquares(x, y);
      LinearFit got = sums.fit(3);
      for (double at : new double[] {base, base + spread}) {
        assertEquals(expected.predict(at), got.predict(at), 1e-6 * Math.max(1, Math.abs(expected.predict(at))),
            "trial " + trial + " at " + at);
      }
      assertEquals(LinearFit.leastSquares(x, new double[n]), sums.fit(4), "a reduce no map put a block of");
    }
  }

  @Test
  void equalInputs_fitTheMeanRatioThroughTheOrigin_andNoMapPredictsZero() {
    RegressionSums sums = new RegressionSums();
    assertEquals(LinearFit.NONE, sums.fit(0));
    sums.addMap(100);
    sums.addMap(100);
    sums.addBlock(100, 0, 30);
    sums.addBlock(100, 0, 50);
    assertEquals(new LinearFit(0.4, 0), sums.fit(0));
  }

  @Test
  void blocksAddedAfterTheirMap_countAsIfGivenWithIt() {
    RegressionSums early = new RegressionSums();
    RegressionSums late = new RegressionSums();
    early.addMap(10);
    early.addBlock(10, 0, 7);
    early.addMap(30);
    early.addBlock(30, 0, 19);
    late.addMap(10);
    late.addMap(30);
    late.addBlock(30, 0, 19);
    late.addBlock(10, 0, 7);
    assertEquals(early.fit(0).predict(20), late.fit(0).predict(20), 1e-9);
    assertEquals(13, late.fit(0).predict(20), 1e-9);
  }
}
