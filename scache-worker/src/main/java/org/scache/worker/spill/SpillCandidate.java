package org.scache.worker.spill;

import org.scache.common.BlockId;

/**
 * What a {@link SpillPolicy} knows of one block when it orders victims: the block, whether it is a
 * prefetched copy of a block another worker holds, whether a reducer has read it, when it was last
 * used, and its place in the pre-schedule: the submission time of its shuffle, its round (the
 * reduces that run together) and whether that round is kept only in part somewhere in the cluster.
 *
 * @param scheduled false while the shuffle has no placement yet; {@code submissionTimeMillis} and
 *     {@code round} are then 0 and mean nothing
 */
public record SpillCandidate(BlockId id, long size, boolean copy, boolean consumed, long lastAccessNanos,
    boolean scheduled, long submissionTimeMillis, int round, boolean roundIncomplete) {

  /** A block of a shuffle that is not placed yet. */
  public static SpillCandidate unscheduled(BlockId id, long size, boolean copy, boolean consumed,
      long lastAccessNanos) {
    return new SpillCandidate(id, size, copy, consumed, lastAccessNanos, false, 0, 0, false);
  }
}
