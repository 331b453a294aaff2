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

  /**
   * Returns when one more block like {@code id} fits, after dropping copies into {@code dropped} if need
   * be; throws the quota's refusal when even that leaves no room.
   */
  void admit(BlockId id, Dropped dropped) {
    while (true) {
      ScacheException refusal = quota.refusal(id);
      if (refusal == null) {
        return;
      }
      Predicate<String> whose = quota.copiesThatMakeRoomFor(id);
      Optional<StoredBlock> copy = whose == null ? Optional.empty() : index.oldestCopy(whose);
      if (copy.isEmpty()) {
        counters.limitRefusals.increment();
        throw refusal;
      }
      index.remove(copy.get()).ifPresent(dropped.onDisk::add);
      counters.droppedCopies.increment();
      dropped.count++;
    }
  }

  /** The copies dropped to make room, and their places on disk, which the caller frees once out of the lock. */
  static final class Dropped {
    private final List<SpillStore.Location> onDisk = new ArrayList<>();
    private int count;

    int count() {
      return count;
    }

    List<SpillStore.Location> onDisk() {
      return onDisk;
    }
  }
}
