package org.scache.worker.spill;

import java.util.Comparator;
import org.scache.common.BlockId;

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
 * Remaining ties go to the larger map id and attempt, so the order is total.
 */
final class ContextAwareSpillPolicy implements SpillPolicy {
  static final ContextAwareSpillPolicy INSTANCE = new ContextAwareSpillPolicy();

  private static final Comparator<SpillCandidate> ORDER = Comparator
      .comparing((SpillCandidate c) -> !c.consumed())
      .thenComparing(c -> !c.copy())
      .thenComparing(c -> !c.roundIncomplete())
      .thenComparing(SpillCandidate::scheduled)
      .thenComparing(Comparator.comparingLong(SpillCandidate::submissionTimeMillis).reversed())
      .thenComparing(c -> c.id().appId(), Comparator.reverseOrder())
      .thenComparing(Comparator.comparingInt((SpillCandidate c) -> c.id().shuffleId()).reversed())
      .thenComparing(Comparator.comparingInt(SpillCandidate::round).reversed())
      .thenComparing(Comparator.comparingInt((SpillCandidate c) -> c.id().reduceId()).reversed())
      .thenComparing(Comparator.comparingInt((SpillCandidate c) -> c.id().mapId()).reversed())
      .thenComparing(Comparator.comparingInt((SpillCandidate c) -> c.id().attempt()).reversed());

  private ContextAwareSpillPolicy() {}

  @Override
  public Comparator<SpillCandidate> victimOrder() {
    return ORDER;
  }

  @Override
  public String name() {
    return "context-aware";
  }

  /** The tie-break of every policy: by block id, larger first. */
  static Comparator<SpillCandidate> byIdDescending() {
    return Comparator.comparing(SpillCandidate::id, Comparator.comparing(BlockId::appId)
        .thenComparingInt(BlockId::shuffleId).thenComparingInt(BlockId::reduceId).thenComparingInt(BlockId::mapId)
        .thenComparingInt(BlockId::attempt)).reversed();
  }
}
