package org.scache.sampling;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class SplitSampleTest {

  @Test
  void fromPartitionIds_countsRecordsPerReduce() {
    SplitSample split = SplitSample.fromPartitionIds(900, 9, 3, new int[] {0, 2, 2, 1, 2});
    assertArrayEquals(new int[] {1, 1, 3}, split.counts());
    assertEquals(5, split.sampledRecords());
    assertEquals(9, split.capacity());
    assertEquals(900, split.inputBytes());
    assertEquals(3, split.reduceCount());
  }

  @Test
  void fromRecords_runsSamplesThroughPartitioner() {
    SplitSample split =
        SplitSample.fromRecords(100, 6, 2, List.of("a", "bb", "cc", "d"), s -> s.length() - 1);
    assertArrayEquals(new int[] {2, 2}, split.counts());
  }

  @Test
  void sample_streamLongerThanCapacity_samplesExactlyCapacity() {
    SplitSample split =
        SplitSample.sample(
            IntStream.range(0, 10_000).iterator(), 10_000L * 8, 12, 4, i -> i % 4, new SplittableRandom(5));
    assertEquals(12, split.sampledRecords());
    assertEquals(4, split.reduceCount());
  }

  @Test
  void fromPartitionIds_partitionOutOfRange_throws() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> SplitSample.fromPartitionIds(10, 6, 2, new int[] {0, 2}));
    assertTrue(e.getMessage().contains("partition id 2 is outside [0, 2)"));
  }

  @Test
  void of_moreSamplesThanCapacity_throws() {
    assertThrows(IllegalArgumentException.class, () -> SplitSample.of(10, 3, new int[] {2, 2}));
  }

  @Test
  void of_negativeInputOrCount_throws() {
    assertThrows(IllegalArgumentException.class, () -> SplitSample.of(-1, 3, new int[] {1}));
    assertThrows(IllegalArgumentException.class, () -> SplitSample.of(1, 3, new int[] {-1}));
    assertThrows(IllegalArgumentException.class, () -> SplitSample.of(1, 3, new int[0]));
  }

  @Test
  void of_copiesCountsIn_andCountsReturnsCopy() {
    int[] counts = {1, 2};
    SplitSample split = SplitSample.of(10, 6, counts);
    counts[0] = 5;
    split.counts()[1] = 9;
    assertArrayEquals(new int[] {1, 2}, split.counts());
  }

  @Test
  void equals_sameFields_equalAndSameHash() {
    SplitSample a = SplitSample.of(10, 6, new int[] {1, 2});
    SplitSample b = SplitSample.fromPartitionIds(10, 6, 2, new int[] {1, 0, 1});
    assertEquals(a, b);
    assertEquals(a.hashCode(), b.hashCode());
    assertNotEquals(a, SplitSample.of(11, 6, new int[] {1, 2}));
  }
}
