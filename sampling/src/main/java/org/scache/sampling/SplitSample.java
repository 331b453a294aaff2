package org.scache.sampling;

import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.function.ToIntFunction;
import java.util.random.RandomGenerator;

/**
 * The sampling result of one map input split: its input size in bytes (the weight of eq. 2), the
 * sample capacity {@code s × p}, and how many sampled records the partitioner sent to each reduce.
 *
 * <p>Immutable. The number of records actually sampled ({@link #sampledRecords()}) is below the
 * capacity only when the split held fewer records than the capacity.
 */
public final class SplitSample {
  private final long inputBytes;
  private final int capacity;
  private final int[] counts;
  private final int sampledRecords;

  private SplitSample(long inputBytes, int capacity, int[] counts) {
    SamplingChecks.require(inputBytes >= 0, "input size must not be negative but was %d", inputBytes);
    SamplingChecks.require(capacity >= 1, "sample capacity must be at least 1 but was %d", capacity);
    SamplingChecks.require(counts.length >= 1, "reduce count must be at least 1 but was %d", counts.length);
    long total = 0;
    for (int reduce = 0; reduce < counts.length; reduce++) {
      SamplingChecks.require(
          counts[reduce] >= 0, "sample count of reduce %d must not be negative but was %d", reduce, counts[reduce]);
      total += counts[reduce];
    }
    SamplingChecks.require(
        total <= capacity, "%d sampled records exceed the sample capacity %d", total, capacity);
    this.inputBytes = inputBytes;
    this.capacity = capacity;
    this.counts = counts;
    this.sampledRecords = (int) total;
  }

  /**
   * A split sample from per-reduce counts.
   *
   * @param inputBytes the split's input size in bytes
   * @param capacity the sample capacity {@code s × p}
   * @param countsPerReduce sampled records per reduce id; its length is the reduce count; copied
   */
  public static SplitSample of(long inputBytes, int capacity, int[] countsPerReduce) {
    Objects.requireNonNull(countsPerReduce, "countsPerReduce");
    return new SplitSample(inputBytes, capacity, countsPerReduce.clone());
  }

  /** A split sample from the partition id of every sampled record, each in {@code [0, reduceCount)}. */
  public static SplitSample fromPartitionIds(
      long inputBytes, int capacity, int reduceCount, int[] partitionIds) {
    Objects.requireNonNull(partitionIds, "partitionIds");
    SamplingChecks.require(reduceCount >= 1, "reduce count must be at least 1 but was %d", reduceCount);
    int[] counts = new int[reduceCount];
    for (int partition : partitionIds) {
      countInto(counts, partition);
    }
    return new SplitSample(inputBytes, capacity, counts);
  }

  /** A split sample from sampled records run through {@code partitioner} (the local shuffle of Fig. 7). */
  public static <T> SplitSample fromRecords(
      long inputBytes,
      int capacity,
      int reduceCount,
      List<? extends T> sampledRecords,
      ToIntFunction<? super T> partitioner) {
    Objects.requireNonNull(sampledRecords, "sampledRecords");
    Objects.requireNonNull(partitioner, "partitioner");
    SamplingChecks.require(reduceCount >= 1, "reduce count must be at least 1 but was %d", reduceCount);
    int[] counts = new int[reduceCount];
    for (T record : sampledRecords) {
      countInto(counts, partitioner.applyAsInt(record));
    }
    return new SplitSample(inputBytes, capacity, counts);
  }

  /**
   * Reservoir-samples {@code capacity} records of a split in one pass and partitions them.
   *
   * @param records the split's records, consumed once
   * @param inputBytes the split's input size in bytes
   * @param capacity the sample capacity {@code s × p}
   * @param reduceCount the number of reduce partitions {@code p}
   * @param partitioner maps a record to its reduce id in {@code [0, reduceCount)}
   * @param random source of randomness for the reservoir
   */
  public static <T> SplitSample sample(
      Iterator<? extends T> records,
      long inputBytes,
      int capacity,
      int reduceCount,
      ToIntFunction<? super T> partitioner,
      RandomGenerator random) {
    List<T> sampled = ReservoirSampler.sample(records, capacity, random);
    return fromRecords(inputBytes, capacity, reduceCount, sampled, partitioner);
  }

  private static void countInto(int[] counts, int partition) {
    SamplingChecks.require(
        partition >= 0 && partition < counts.length,
        "partition id %d is outside [0, %d)",
        partition,
        counts.length);
    counts[partition]++;
  }

  /** The split's input size in bytes, the weight of its samples. */
  public long inputBytes() {
    return inputBytes;
  }

  /** The sample capacity {@code s × p} the split was sampled with. */
  public int capacity() {
    return capacity;
  }

  /** The number of reduce partitions {@code p}. */
  public int reduceCount() {
    return counts.length;
  }

  /** How many records were actually sampled: the capacity, or fewer when the split was smaller. */
  public int sampledRecords() {
    return sampledRecords;
  }

  /** How many sampled records went to {@code reduceId}. */
  public int count(int reduceId) {
    SamplingChecks.require(
        reduceId >= 0 && reduceId < counts.length, "reduce id %d is outside [0, %d)", reduceId, counts.length);
    return counts[reduceId];
  }

  /** A copy of the per-reduce sample counts. */
  public int[] counts() {
    return counts.clone();
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof SplitSample that
        && inputBytes == that.inputBytes
        && capacity == that.capacity
        && Arrays.equals(counts, that.counts);
  }

  @Override
  public int hashCode() {
    return 31 * (31 * Long.hashCode(inputBytes) + capacity) + Arrays.hashCode(counts);
  }

  @Override
  public String toString() {
    return "SplitSample[inputBytes=" + inputBytes + ", capacity=" + capacity + ", sampled="
        + sampledRecords + ", reduces=" + counts.length + "]";
  }
}
