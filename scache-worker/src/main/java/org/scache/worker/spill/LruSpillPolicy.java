package org.scache.worker.spill;

import java.util.Comparator;

/**
 * Least recently used block first, blind to the schedule: the cache policy the paper argues
 * against, kept as a baseline for the spill benchmark. Ties go to the larger block id.
 */
final class LruSpillPolicy implements SpillPolicy {
  static final LruSpillPolicy INSTANCE = new LruSpillPolicy();

  private static final Comparator<SpillCandidate> ORDER = Comparator
      .comparingLong(SpillCandidate::lastAccessNanos)
      .thenComparing(ContextAwareSpillPolicy.byIdDescending());

  private LruSpillPolicy() {}

  @Override
  public Comparator<SpillCandidate> victimOrder() {
    return ORDER;
  }

  @Override
  public String name() {
    return "lru";
  }

  @Override
  public boolean ordersByLastUse() {
    return true;
  }

  @Override
  public boolean ranksBySchedule() {
    return false;
  }
}
