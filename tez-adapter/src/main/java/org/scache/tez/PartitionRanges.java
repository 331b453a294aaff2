package org.scache.tez;

/**
 * How Tez's ShuffleVertexManager groups a producer's partitions when it lowers the consumer's
 * parallelism: consumer task {@code t} reads partitions {@code [t*base, (t+1)*base)}, the last task
 * the remainder, with {@code base = partitions / desired} and the task count
 * {@code partitions / base} plus one when there is a remainder.
 */
final class PartitionRanges {
  private PartitionRanges() {}

  /** The smallest base range for which that grouping of {@code partitions} yields {@code tasks} tasks. */
  static int baseRange(int partitions, int tasks) {
    for (int base = 1; base <= partitions; base++) {
      int count = partitions / base + (partitions % base > 0 ? 1 : 0);
      if (count == tasks) {
        return base;
      }
    }
    return Math.max(1, partitions / Math.max(1, tasks));
  }
}
