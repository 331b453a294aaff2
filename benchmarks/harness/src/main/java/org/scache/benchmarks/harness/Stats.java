package org.scache.benchmarks.harness;

import java.util.Collection;

/** Medians and ratios as the reports print them. */
public final class Stats {
  private Stats() {}

  /** The median, the mean of the middle two for an even count; NaN when there are no values. */
  public static double median(Collection<Double> values) {
    double[] v = values.stream().filter(x -> !Double.isNaN(x)).mapToDouble(Double::doubleValue).sorted().toArray();
    if (v.length == 0) {
      return Double.NaN;
    }
    return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  }

  /** {@code a / b}, NaN when {@code b} is 0 or either is NaN. */
  public static double ratio(double a, double b) {
    return b == 0 || Double.isNaN(a) || Double.isNaN(b) ? Double.NaN : a / b;
  }
}
