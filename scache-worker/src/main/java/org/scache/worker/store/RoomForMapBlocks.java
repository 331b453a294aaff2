package org.scache.worker.store;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import org.scache.common.BlockId;
import org.scache.common.ScacheException;
import org.scache.worker.counters.WorkerCounters;
import org.scache.worker.spill.SpillStore;

/**
 * Whether a block a map puts may be held under the {@link BlockQuota}, making room for it by dropping
 * prefetched copies when the count is at its limit: of any application when the worker is at its limit in
 * all, of the block's owner when that owner is at its share. A copy's block is still held by the worker it
 * came from, where its reduce reads it when the copy is gone, so a map's output is never refused while
 * copies take the room; copies themselves never make room for copies. Not thread-safe: the
 * {@link BlockStore} calls it under its lock.
 */
final class RoomForMapBlocks {
  private final BlockIndex index;
  private final BlockQuota quota;
  private final WorkerCounters counters;

  RoomForMapBlocks(BlockIndex index, BlockQuota quota, WorkerCounters counters) {
    this.index = index;
    this.quota = quota;
    this.counters = counters;
  }

  /** A block that fits without dropping anything. */
  static final Admission FITS = new Admission(List.of(), 0, null);

  /**
   * Whether one more block like {@code id} fits, after dropping copies if need be: the copies dropped (their
   * places on disk, which the caller frees once out of the lock, whether the block then fits or not) and the
   * quota's refusal when even that left no room.
   */
  record Admission(List<SpillStore.Location> onDisk, int dropped, ScacheException refusal) {
    boolean fits() {
      return refusal == null;
    }
  }

  /** Admits one more block like {@code id}, the first of its map attempt held here if {@code opensMapAttempt}. */
  Admission admit(BlockId id, boolean opensMapAttempt) {
    ScacheException refusal = quota.refusal(id, opensMapAttempt);
    if (refusal == null) {
      return FITS;
    }
    List<SpillStore.Location> onDisk = new ArrayList<>();
    int dropped = 0;
    while (refusal != null) {
      Predicate<String> whose = quota.copiesThatMakeRoomFor(id, opensMapAttempt);
      Optional<StoredBlock> copy = whose == null ? Optional.empty() : index.oldestCopy(whose);
      if (copy.isEmpty()) {
        counters.limitRefusals.increment();
        break;
      }
      index.remove(copy.get()).ifPresent(onDisk::add);
      counters.droppedCopies.increment();
      dropped++;
      refusal = quota.refusal(id, opensMapAttempt);
    }
    return new Admission(onDisk, dropped, refusal);
  }
}
