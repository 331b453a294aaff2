package org.scache.master.predict;

import java.util.Arrays;

/**
 * Eq. 1's least-squares sums over the maps observed so far, per reduce: what the fit of every reduce needs without
 * keeping any map's blocks. The input sizes are taken relative to the first map's (the shifted-data form of the
 * sums: near the points' mean, so that the variance of close inputs is not lost to rounding), and the fit matches
 * one over the points themselves. A map is counted once; its blocks are added as they are observed. Not thread-safe.
 */
public final class RegressionSums {
  /** The first map's input size, which the others' are taken relative to. */
  private double centre;
  private int maps;
  private double sumX;
  private double sumXx;
  private long minX = Long.MAX_VALUE;
  private long maxX = Long.MIN_VALUE;
  private long[] sumY = new long[0];
  private double[] sumXy = new double[0];

  /** One more observed map, of {@code inputBytes} of input; its blocks follow by {@link #addBlock}. */
  public void addMap(long inputBytes) {
    if (maps == 0) {
      centre = inputBytes;
    }
    double x = inputBytes - centre;
    maps++;
    sumX += x;
    sumXx += x * x;
    minX = Math.min(minX, inputBytes);
    maxX = Math.max(maxX, inputBytes);
  }

  /** A block of {@code size} bytes for {@code reduce} of an observed map of {@code inputBytes} of input. */
  public void addBlock(long inputBytes, int reduce, long size) {
    if (reduce >= sumY.length) {
      int length = Math.max(reduce + 1, Math.max(8, sumY.length * 2));
      sumY = Arrays.copyOf(sumY, length);
      sumXy = Arrays.copyOf(sumXy, length);
    }
    sumY[reduce] += size;
    sumXy[reduce] += (inputBytes - centre) * size;
  }

  /** The maps observed. */
  public int maps() {
    return maps;
  }

  /**
   * Eq. 1 for {@code reduce}, as {@link LinearFit#leastSquares} fits it over the observed points, degenerate cases
   * alike: no map observed predicts 0; all inputs equal give the mean ratio through the origin.
   */
  public LinearFit fit(int reduce) {
    if (maps == 0) {
      return LinearFit.NONE;
    }
    double y = reduce < sumY.length ? sumY[reduce] : 0;
    double xy = reduce < sumXy.length ? sumXy[reduce] : 0;
    double meanX = sumX / maps;
    double meanY = y / maps;
    if (minX == maxX) {
      double allX = (double) minX * maps;
      return allX > 0 ? new LinearFit(y / allX, 0) : new LinearFit(0, meanY);
    }
    double sxx = sumXx - sumX * meanX;
    double sxy = xy - sumX * meanY;
    double slope = sxy / sxx;
    return new LinearFit(slope, meanY - slope * (meanX + centre));
  }
}
