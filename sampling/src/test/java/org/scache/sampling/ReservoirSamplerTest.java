package org.scache.sampling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ReservoirSamplerTest {

  private static List<Integer> range(int n) {
    return IntStream.range(0, n).boxed().toList();
  }

  @Test
  void sample_fewerItemsThanCapacity_keepsAllInOrder() {
    ReservoirSampler<Integer> sampler = new ReservoirSampler<>(10, new SplittableRandom(1));
    sampler.offerAll(range(4));
    assertEquals(List.of(0, 1, 2, 3), sampler.sample());
    assertEquals(4, sampler.seen());
  }

  @Test
  void sample_exactlyCapacityItems_keepsAll() {
    List<Integer> sample = ReservoirSampler.sample(range(5).iterator(), 5, new SplittableRandom(2));
    assertEquals(List.of(0, 1, 2, 3, 4), sample);
  }

  @Test
  void sample_longStream_keepsCapacityDistinctItemsFromTheStream() {
    List<Integer> sample = ReservoirSampler.sample(range(10_000).iterator(), 60, new SplittableRandom(3));
    assertEquals(60, sample.size());
    assertEquals(60, new HashSet<>(sample).size());
    assertTrue(sample.stream().allMatch(i -> i >= 0 && i < 10_000));
  }

  @Test
  void sample_sameSeed_sameSample() {
    List<Integer> a = ReservoirSampler.sample(range(1000).iterator(), 7, new SplittableRandom(42));
    List<Integer> b = ReservoirSampler.sample(range(1000).iterator(), 7, new SplittableRandom(42));
    assertEquals(a, b);
  }

  @Test
  void sample_manySeededRuns_everyPositionIncludedWithProbabilityCapacityOverN() {
    int n = 50;
    int k = 5;
    int runs = 40_000;
    int[] hits = new int[n];
    SplittableRandom random = new SplittableRandom(7);
    for (int run = 0; run < runs; run++) {
      for (int item : ReservoirSampler.sample(range(n).iterator(), k, random)) {
        hits[item]++;
      }
    }
    double expected = (double) runs * k / n; // 4000
    double sigma = Math.sqrt(runs * ((double) k / n) * (1 - (double) k / n)); // 60
    for (int item = 0; item < n; item++) {
      assertTrue(
          Math.abs(hits[item] - expected) < 5 * sigma,
          String.format("item %d sampled %d times, expected about %.0f", item, hits[item], expected));
    }
  }

  @Test
  void sample_returnsSnapshotThatLaterOffersDoNotChange() {
    ReservoirSampler<Integer> sampler = new ReservoirSampler<>(3, new SplittableRandom(1));
    sampler.offerAll(range(3));
    List<Integer> snapshot = sampler.sample();
    sampler.offerAll(range(1000));
    assertEquals(List.of(0, 1, 2), snapshot);
    assertThrows(UnsupportedOperationException.class, () -> snapshot.add(9));
  }

  @Test
  void constructor_capacityBelowOne_throws() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> new ReservoirSampler<>(0, new SplittableRandom(1)));
    assertTrue(e.getMessage().contains("capacity must be at least 1"));
  }

  @Test
  void offer_nullItem_throws() {
    ReservoirSampler<String> sampler = new ReservoirSampler<>(3, new SplittableRandom(1));
    assertThrows(NullPointerException.class, () -> sampler.offer(null));
  }
}
