package org.scache.benchmarks.store;

import java.util.Comparator;
import org.scache.worker.spill.SpillCandidate;
import org.scache.worker.spill.SpillPolicy;

/** Victims in an order fixed by a seeded hash of the block id: random victims, for the spill benchmark only. */
final class RandomSpillPolicy implements SpillPolicy {
  private final long seed;

  RandomSpillPolicy(long seed) {
    this.seed = seed;
  }

  @Override
  public Comparator<SpillCandidate> victimOrder() {
    return Comparator.comparingLong((SpillCandidate c) -> mix(c.id().hashCode() * 0x9E3779B97F4A7C15L ^ seed))
        .thenComparing(c -> c.id().toString());
  }

  @Override
  public String name() {
    return "random";
  }

  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
