package org.scache.sampling;

import java.util.List;
import java.util.Objects;

/**
 * Predicts reduce partition sizes from per-split samples by weighted reservoir sampling (paper eq.
 * 2): {@code BlockSize_ji = InputSize_j × sample_ji / (s × p)}, summed over splits per reduce id.
 *
 * <p>The divisor is the number of records actually sampled from split {@code j}, not the nominal
 * {@code s × p}: a split with fewer records than {@code s × p} is sampled completely, and each of
 * its {@code n} records then stands for {@code InputSize_j / n} bytes. Dividing by {@code s × p}
 * would under-count such splits. Both agree when the split is at least {@code s × p} records long,
 * so every non-empty split's predicted blocks sum to exactly its input size. A split with no
 * records contributes nothing. Stateless and thread-safe.
 */
public final class WeightedSamplingPredictor {
  /** The paper's default sample factor {@code s}: samples per reduce partition and split. */
  public static final int DEFAULT_SAMPLES_PER_REDUCE = 3;

  private final int reduceCount;
  private final int samplesPerReduce;

  /** A predictor for {@code reduceCount} partitions with the default {@code s = 3}. */
  public WeightedSamplingPredictor(int reduceCount) {
    this(reduceCount, DEFAULT_SAMPLES_PER_REDUCE);
  }

  /**
   * A predictor for {@code reduceCount} partitions sampling {@code samplesPerReduce × reduceCount}
   * records per split.
   */
  public WeightedSamplingPredictor(int reduceCount, int samplesPerReduce) {
    SamplingChecks.require(reduceCount >= 1, "reduce count must be at least 1 but was %d", reduceCount);
    SamplingChecks.require(
        samplesPerReduce >= 1, "samples per reduce must be at least 1 but was %d", samplesPerReduce);
    SamplingChecks.require(
        (long) reduceCount * samplesPerReduce <= Integer.MAX_VALUE,
        "sample capacity %d × %d overflows an int",
        samplesPerReduce,
        reduceCount);
    this.reduceCount = reduceCount;
    this.samplesPerReduce = samplesPerReduce;
  }

  /** The number of reduce partitions {@code p}. */
  public int reduceCount() {
    return reduceCount;
  }

  /** The sample factor {@code s}. */
  public int samplesPerReduce() {
    return samplesPerReduce;
  }

  /** The per-split sample capacity {@code s × p} to give the {@link ReservoirSampler}. */
  public int sampleCapacity() {
    return samplesPerReduce * reduceCount;
  }

  /**
   * Applies eq. 2 to every split, in list order (the list index is the map index).
   *
   * @throws IllegalArgumentException if a split has another reduce count or capacity than this
   *     predictor's
   */
  public SamplingEstimate predict(List<SplitSample> splits) {
    Objects.requireNonNull(splits, "splits");
    double[][] blocks = new double[splits.size()][];
    for (int map = 0; map < splits.size(); map++) {
      SplitSample split = Objects.requireNonNull(splits.get(map), "split");
      SamplingChecks.require(
          split.reduceCount() == reduceCount,
          "split %d has %d reduces but this predictor expects %d",
          map,
          split.reduceCount(),
          reduceCount);
      SamplingChecks.require(
          split.capacity() == sampleCapacity(),
          "split %d was sampled with capacity %d but this predictor expects s × p = %d",
          map,
          split.capacity(),
          sampleCapacity());
      blocks[map] = blockSizes(split);
    }
    return new SamplingEstimate(reduceCount, blocks);
  }

  /** Eq. 2 for one split: its predicted block size in bytes for every reduce id. */
  public static double[] blockSizes(SplitSample split) {
    Objects.requireNonNull(split, "split");
    double[] sizes = new double[split.reduceCount()];
    int sampled = split.sampledRecords();
    if (sampled == 0) {
      return sizes;
    }
    double bytesPerSample = (double) split.inputBytes() / sampled;
    for (int reduce = 0; reduce < sizes.length; reduce++) {
      sizes[reduce] = split.count(reduce) * bytesPerSample;
    }
    return sizes;
  }
}
