package org.scache.master.predict;

import static org.scache.common.Checks.require;

import java.util.Objects;

/**
 * One reduce's eq. 1 model {@code BlockSize = slope × inputSize + intercept}, fitted by least
 * squares; predictions are clamped at zero.
 *
 * @param slope bytes of block per byte of map input
 * @param intercept bytes of block at zero input
 */
public record LinearFit(double slope, double intercept) {
  /** The model of a reduce nothing was observed for: it predicts 0 bytes. */
  public static final LinearFit NONE = new LinearFit(0, 0);

  /** Validates the coefficients. */
  public LinearFit {
    require(Double.isFinite(slope), "slope must be finite but was %s", slope);
    require(Double.isFinite(intercept), "intercept must be finite but was %s", intercept);
  }

  /**
   * Fits {@code y = slope × x + intercept} by ordinary least squares, with these degenerate cases:
   *
   * <ul>
   *   <li>no points: {@link #NONE} (predicts 0);
   *   <li>all {@code x} equal (in particular a single point), so the slope is undetermined: the
   *       mean ratio through the origin, {@code slope = Σy / Σx}, {@code intercept = 0}, the
   *       paper's observation that output/input ratios are invariant; if all {@code x} are 0, the
   *       mean {@code y} as a constant.
   * </ul>
   */
  public static LinearFit leastSquares(double[] x, double[] y) {
    Objects.requireNonNull(x, "x");
    Objects.requireNonNull(y, "y");
    require(x.length == y.length, "x has %d points but y has %d", x.length, y.length);
    int n = x.length;
    if (n == 0) {
      return NONE;
    }
    double sumX = 0;
    double sumY = 0;
    for (int i = 0; i < n; i++) {
      sumX += x[i];
      sumY += y[i];
    }
    double meanX = sumX / n;
    double meanY = sumY / n;
    double sxx = 0;
    double sxy = 0;
    for (int i = 0; i < n; i++) {
      double dx = x[i] - meanX;
      sxx += dx * dx;
      sxy += dx * (y[i] - meanY);
    }
    if (sxx == 0) {
      return sumX > 0 ? new LinearFit(sumY / sumX, 0) : new LinearFit(0, meanY);
    }
    double slope = sxy / sxx;
    return new LinearFit(slope, meanY - slope * meanX);
  }

  /** The predicted block size for a map of {@code inputSize} bytes, never negative. */
  public double predict(double inputSize) {
    return Math.max(0, slope * inputSize + intercept);
  }
}
