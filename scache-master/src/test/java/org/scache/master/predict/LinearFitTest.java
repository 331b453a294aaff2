package org.scache.master.predict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LinearFitTest {

  @Test
  void leastSquares_noPoints_predictsZero() {
    LinearFit fit = LinearFit.leastSquares(new double[0], new double[0]);
    assertEquals(LinearFit.NONE, fit);
    assertEquals(0, fit.predict(1e9));
  }

  @Test
  void leastSquares_onePoint_usesRatioThroughOrigin() {
    LinearFit fit = LinearFit.leastSquares(new double[] {200}, new double[] {50});
    assertEquals(0.25, fit.slope(), 1e-12);
    assertEquals(0, fit.intercept(), 1e-12);
    assertEquals(100, fit.predict(400), 1e-9);
  }

  @Test
  void leastSquares_equalInputs_usesMeanRatio() {
    LinearFit fit = LinearFit.leastSquares(new double[] {100, 100, 100}, new double[] {10, 20, 60});
    assertEquals(0.3, fit.slope(), 1e-12);
    assertEquals(0, fit.intercept(), 1e-12);
  }

  @Test
  void leastSquares_allInputsZero_usesMeanOutput() {
    LinearFit fit = LinearFit.leastSquares(new double[] {0, 0}, new double[] {4, 8});
    assertEquals(0, fit.slope(), 1e-12);
    assertEquals(6, fit.intercept(), 1e-12);
  }

  @Test
  void leastSquares_noisyPoints_matchesClosedForm() {
    // points (1,1), (2,3), (3,2): slope 0.5, intercept 1
    LinearFit fit = LinearFit.leastSquares(new double[] {1, 2, 3}, new double[] {1, 3, 2});
    assertEquals(0.5, fit.slope(), 1e-12);
    assertEquals(1.0, fit.intercept(), 1e-12);
  }

  @Test
  void leastSquares_exactlyLinearRandomData_recoversCoefficients() {
    SplittableRandom random = new SplittableRandom(3);
    for (int trial = 0; trial < 2000; trial++) {
      double a = random.nextInt(0, 10) / 4.0;
      double b = random.nextInt(-1000, 1000);
      int n = 2 + random.nextInt(30);
      double[] x = new double[n];
      double[] y = new double[n];
      for (int i = 0; i < n; i++) {
        x[i] = random.nextLong(1, 1L << 40);
        y[i] = a * x[i] + b;
      }
      LinearFit fit = LinearFit.leastSquares(x, y);
      for (double xi : x) {
        assertEquals(Math.max(0, a * xi + b), fit.predict(xi), 1e-9 * Math.abs(a * xi) + 1e-3, "trial " + trial);
      }
    }
  }

  @Test
  void predict_negativeLine_clampsAtZero() {
    assertEquals(0, new LinearFit(-1, 10).predict(20));
  }

  @Test
  void leastSquares_mismatchedLengths_throws() {
    assertThrows(IllegalArgumentException.class, () -> LinearFit.leastSquares(new double[1], new double[2]));
  }
}
