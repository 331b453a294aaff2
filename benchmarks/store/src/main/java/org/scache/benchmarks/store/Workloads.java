package org.scache.benchmarks.store;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.random.RandomGenerator;
import java.util.stream.IntStream;
import org.scache.master.predict.ReducePrediction;

/** Synthetic reduce workloads shared by the benchmarks. */
final class Workloads {
  private Workloads() {}

  /** Host ids {@code host-0 .. host-(count-1)}. */
  static List<String> hosts(int count) {
    return IntStream.range(0, count).mapToObj(h -> "host-" + h).toList();
  }

  /**
   * Zipf-skewed reduce sizes: reduce {@code i} gets {@code 1000 / rank^exponent} for a random
   * permutation of ranks {@code 1..n}, so the skew is not correlated with the reduce id.
   */
  static double[] zipfSizes(int n, double exponent, RandomGenerator random) {
    int[] ranks = IntStream.rangeClosed(1, n).toArray();
    for (int k = n - 1; k > 0; k--) {
      int j = random.nextInt(k + 1);
      int tmp = ranks[k];
      ranks[k] = ranks[j];
      ranks[j] = tmp;
    }
    double[] sizes = new double[n];
    for (int i = 0; i < n; i++) {
      sizes[i] = 1000.0 / Math.pow(ranks[i], exponent);
    }
    return sizes;
  }

  /** Predictions with exact sizes and no known location. */
  static List<ReducePrediction> withoutHosts(double[] sizes) {
    List<ReducePrediction> out = new ArrayList<>(sizes.length);
    for (int i = 0; i < sizes.length; i++) {
      out.add(ReducePrediction.withoutHost(i, sizes[i]));
    }
    return out;
  }

  static double sum(double[] values) {
    double total = 0;
    for (double v : values) {
      total += v;
    }
    return total;
  }

  static double max(double[] values) {
    double max = 0;
    for (double v : values) {
      max = Math.max(max, v);
    }
    return max;
  }

  static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }
}
