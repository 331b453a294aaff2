package org.scache.worker.spill;

import java.util.Comparator;

/**
 * The paper's victim order (Section IV-B), first victim first:
 *
 * <ol>
 *   <li>blocks a reducer has read already (kept only in case the reducer is retried), prefetched
 *       copies before originals;
 *   <li>prefetched copies: dropped, not spilled, since the original is held by another worker;
 *   <li>blocks of rounds some worker keeps only in part (all-or-nothing: a round that will miss
 *       memory anyway gives way first, cluster-wide);
 *   <li>blocks of shuffles not placed yet: no round of theirs can start before the shuffle is placed,
 *       which under FIFO happens after every placed shuffle;
 *   <li>complete rounds: the later-submitted shuffle first (inter-shuffle, FIFO), then the later round
 *       and the larger reduce id (intra-shuffle: frameworks launch smaller task ids first).
 * </ol>
 *
 * Remaining ties, among one reduce's blocks, go to the block that came later (the blocks of a map attempt come
 * together: the map attempt whose blocks came last first), then to the larger map id and attempt, so the order is
 * total.
 */
final class ContextAwareSpillPolicy implements SpillPolicy {
  static final ContextAwareSpillPolicy INSTANCE = new ContextAwareSpillPolicy();

  /** The order above, written out: it runs on every change of the worker's victim index, under its lock. */
  private static final Comparator<SpillCandidate> ORDER = ContextAwareSpillPolicy::compare;

  private static int compare(SpillCandidate a, SpillCandidate b) {
    int c = Boolean.compare(b.consumed(), a.consumed());
    if (c != 0) {
      return c;
    }
    if ((c = Boolean.compare(b.copy(), a.copy())) != 0) {
      return c;
    }
    if ((c = Boolean.compare(b.roundIncomplete(), a.roundIncomplete())) != 0) {
      return c;
    }
    if ((c = Boolean.compare(a.scheduled(), b.scheduled())) != 0) {
      return c;
    }
    if ((c = Long.compare(b.submissionTimeMillis(), a.submissionTimeMillis())) != 0) {
      return c;
    }
    String appA = a.appId();
    String appB = b.appId();
    if (appA != appB && (c = appB.compareTo(appA)) != 0) {
      return c;
    }
    if ((c = Integer.compare(b.shuffleId(), a.shuffleId())) != 0) {
      return c;
    }
    if ((c = Integer.compare(b.round(), a.round())) != 0) {
      return c;
    }
    if ((c = Integer.compare(b.reduceId(), a.reduceId())) != 0) {
      return c;
    }
    return compareMaps(a, b);
  }

  private static int compareMaps(SpillCandidate a, SpillCandidate b) {
    int c = Long.compare(b.arrival(), a.arrival());
    if (c != 0) {
      return c;
    }
    c = Integer.compare(b.mapId(), a.mapId());
    return c != 0 ? c : Integer.compare(b.attempt(), a.attempt());
  }

  private ContextAwareSpillPolicy() {}

  @Override
  public Comparator<SpillCandidate> victimOrder() {
    return ORDER;
  }

  @Override
  public String name() {
    return "context-aware";
  }

  /** Everything before the arrival above is the reduce's, or whether a block is a copy, or read. */
  @Override
  public boolean ranksByReduce() {
    return true;
  }


  /** The tie-break of every policy: by block id, larger first. */
  static Comparator<SpillCandidate> byIdDescending() {
    return Comparator.comparing(SpillCandidate::appId).thenComparingInt(SpillCandidate::shuffleId)
        .thenComparingInt(SpillCandidate::reduceId).thenComparingInt(SpillCandidate::mapId)
        .thenComparingInt(SpillCandidate::attempt).reversed();
  }
}
