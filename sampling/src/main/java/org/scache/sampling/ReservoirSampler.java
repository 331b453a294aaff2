package org.scache.sampling;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * Keeps a uniform random sample of at most {@code capacity} items from a stream of unknown length
 * (Algorithm R, as described by Vitter), the per-split sampler of the paper's Section IV-A1.
 *
 * <p>After {@code n} offers every offered item is in the sample with probability {@code min(1,
 * capacity / n)}. Not thread-safe.
 *
 * @param <T> the sampled item type
 */
public final class ReservoirSampler<T> {
  private final int capacity;
  private final RandomGenerator random;
  private final List<T> reservoir;
  private long seen;

  /**
   * Creates an empty sampler.
   *
   * @param capacity the most items to keep, at least 1
   * @param random source of randomness; seed it for reproducible samples
   */
  public ReservoirSampler(int capacity, RandomGenerator random) {
    SamplingChecks.require(capacity >= 1, "capacity must be at least 1 but was %d", capacity);
    this.capacity = capacity;
    this.random = Objects.requireNonNull(random, "random");
    this.reservoir = new ArrayList<>(Math.min(capacity, 1 << 16));
  }

  /** Samples {@code capacity} items of {@code items} in one pass; convenience for a finite stream. */
  public static <T> List<T> sample(
      Iterator<? extends T> items, int capacity, RandomGenerator random) {
    Objects.requireNonNull(items, "items");
    ReservoirSampler<T> sampler = new ReservoirSampler<>(capacity, random);
    while (items.hasNext()) {
      sampler.offer(items.next());
    }
    return sampler.sample();
  }

  /** Offers the next item of the stream; it replaces a random kept item with probability capacity / seen. */
  public void offer(T item) {
    Objects.requireNonNull(item, "item");
    seen++;
    if (reservoir.size() < capacity) {
      reservoir.add(item);
      return;
    }
    long slot = random.nextLong(seen);
    if (slot < capacity) {
      reservoir.set((int) slot, item);
    }
  }

  /** Offers every item of {@code items} in iteration order. */
  public void offerAll(Iterable<? extends T> items) {
    Objects.requireNonNull(items, "items");
    for (T item : items) {
      offer(item);
    }
  }

  /** The most items this sampler keeps. */
  public int capacity() {
    return capacity;
  }

  /** How many items have been offered so far. */
  public long seen() {
    return seen;
  }

  /**
   * A snapshot of the current sample: all offered items in offer order while fewer than capacity
   * were offered, otherwise exactly {@code capacity} items in reservoir-slot order.
   */
  public List<T> sample() {
    return Collections.unmodifiableList(new ArrayList<>(reservoir));
  }
}
