package org.scache.benchmarks.harness.chart;

/** The time axes of the charts. */
public final class Ticks {
  private Ticks() {}

  /** A round step that gives at most about 12 ticks over {@code seconds}. */
  public static double step(double seconds) {
    double[] steps = {0.5, 1, 2, 5, 10, 15, 20, 30, 60, 120, 300, 600, 1200, 1800, 3600};
    for (double s : steps) {
      if (seconds / s <= 12) {
        return s;
      }
    }
    return 7200;
  }
}
