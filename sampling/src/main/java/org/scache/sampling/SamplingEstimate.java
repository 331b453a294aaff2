package org.scache.sampling;

import java.util.Arrays;
import java.util.OptionalInt;

/**
 * The outcome of {@link WeightedSamplingPredictor}: predicted block sizes per (split, reduce), the
 * predicted size of every reduce, and eq. 3's largest single-split share {@code prob_i}.
 *
 * <p>Immutable. Splits are indexed by their position in the list given to the predictor.
 */
public final class SamplingEstimate {
  private final int reduceCount;
  private final double[][] blocks;
  private final double[] reduceSizes;
  private final double[] probs;
  private final int[] largestSplits;

  SamplingEstimate(int reduceCount, double[][] blocks) {
    this.reduceCount = reduceCount;
    this.blocks = blocks;
    this.reduceSizes = new double[reduceCount];
    this.probs = new double[reduceCount];
    this.largestSplits = new int[reduceCount];
    double[] largest = new double[reduceCount];
    Arrays.fill(largestSplits, -1);
    for (int split = 0; split < blocks.length; split++) {
      for (int reduce = 0; reduce < reduceCount; reduce++) {
        double block = blocks[split][reduce];
        reduceSizes[reduce] += block;
        if (block > largest[reduce]) {
          largest[reduce] = block;
          largestSplits[reduce] = split;
        }
      }
    }
    for (int reduce = 0; reduce < reduceCount; reduce++) {
      probs[reduce] = reduceSizes[reduce] > 0 ? Math.min(1.0, largest[reduce] / reduceSizes[reduce]) : 0.0;
    }
  }

  /** The number of reduce partitions. */
  public int reduceCount() {
    return reduceCount;
  }

  /** The number of splits (map tasks) the estimate covers. */
  public int splitCount() {
    return blocks.length;
  }

  /** The predicted bytes split {@code split} produces for reduce {@code reduceId} (eq. 2). */
  public double blockSize(int split, int reduceId) {
    checkSplit(split);
    checkReduce(reduceId);
    return blocks[split][reduceId];
  }

  /** The predicted input size of reduce {@code reduceId} in bytes: the sum of its blocks. */
  public double reduceSize(int reduceId) {
    checkReduce(reduceId);
    return reduceSizes[reduceId];
  }

  /** A copy of every reduce's predicted size, indexed by reduce id. */
  public double[] reduceSizes() {
    return reduceSizes.clone();
  }

  /**
   * Eq. 3 at split granularity: the largest share one split contributes to reduce {@code
   * reduceId}, in {@code [0, 1]}; 0 for a reduce predicted empty.
   */
  public double prob(int reduceId) {
    checkReduce(reduceId);
    return probs[reduceId];
  }

  /**
   * The split contributing the largest share of reduce {@code reduceId} (the lowest index on a
   * tie), or empty when the reduce is predicted empty.
   */
  public OptionalInt largestSplit(int reduceId) {
    checkReduce(reduceId);
    int split = largestSplits[reduceId];
    return split < 0 ? OptionalInt.empty() : OptionalInt.of(split);
  }

  private void checkSplit(int split) {
    SamplingChecks.require(
        split >= 0 && split < blocks.length, "split %d is outside [0, %d)", split, blocks.length);
  }

  private void checkReduce(int reduceId) {
    SamplingChecks.require(
        reduceId >= 0 && reduceId < reduceCount, "reduce id %d is outside [0, %d)", reduceId, reduceCount);
  }
}
