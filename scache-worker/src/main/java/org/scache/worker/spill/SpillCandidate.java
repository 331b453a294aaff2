package org.scache.worker.spill;

import org.scache.common.BlockId;

/**
 * What a {@link SpillPolicy} knows of one block when it orders victims: the block, whether it is a
 * prefetched copy of a block another worker holds, whether a reducer has read it, when it was last
 * used, and its place in the pre-schedule: the submission time of its shuffle, its round (the
 * reduces that run together) and whether that round is kept only in part somewhere in the cluster.
 * The store's blocks are candidates themselves, ranked as they were when last placed in the order;
 * {@link #of} makes one of a block not stored.
 *
 * <p>{@link #scheduled()} is false while the shuffle has no placement yet; {@link #submissionTimeMillis()} and
 * {@link #round()} are then 0 and mean nothing.
 */
public interface SpillCandidate {
  BlockId id();

  /** The parts of {@link #id()}, which a candidate may answer without making the id. */
  default String appId() {
    return id().appId();
  }

  default int shuffleId() {
    return id().shuffleId();
  }

  default int mapId() {
    return id().mapId();
  }

  default int attempt() {
    return id().attempt();
  }

  default int reduceId() {
    return id().reduceId();
  }

  long size();

  boolean copy();

  boolean consumed();

  long lastAccessNanos();

  boolean scheduled();

  long submissionTimeMillis();

  int round();

  boolean roundIncomplete();

  /**
   * When the block came, among the blocks of its shuffle on this worker: a larger number for a block of a map attempt
   * whose blocks came later. A block not stored yet comes after every stored one ({@link Long#MAX_VALUE}).
   */
  default long arrival() {
    return Long.MAX_VALUE;
  }

  /** A candidate of these values, not stored yet (it comes after every stored block). */
  static SpillCandidate of(BlockId id, long size, boolean copy, boolean consumed, long lastAccessNanos,
      boolean scheduled, long submissionTimeMillis, int round, boolean roundIncomplete) {
    return of(id, size, copy, consumed, lastAccessNanos, scheduled, submissionTimeMillis, round, roundIncomplete,
        Long.MAX_VALUE);
  }

  /** A candidate of these values that came at {@code arrival}. */
  static SpillCandidate of(BlockId id, long size, boolean copy, boolean consumed, long lastAccessNanos,
      boolean scheduled, long submissionTimeMillis, int round, boolean roundIncomplete, long arrival) {
    return new Values(id, size, copy, consumed, lastAccessNanos, scheduled, submissionTimeMillis, round,
        roundIncomplete, arrival);
  }

  /** A block of a shuffle that is not placed yet. */
  static SpillCandidate unscheduled(BlockId id, long size, boolean copy, boolean consumed, long lastAccessNanos) {
    return of(id, size, copy, consumed, lastAccessNanos, false, 0, 0, false);
  }

  /** A candidate's values, held. */
  record Values(BlockId id, long size, boolean copy, boolean consumed, long lastAccessNanos, boolean scheduled,
      long submissionTimeMillis, int round, boolean roundIncomplete, long arrival) implements SpillCandidate {}
}
