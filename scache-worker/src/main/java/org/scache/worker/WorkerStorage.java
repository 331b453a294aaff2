package org.scache.worker;

import java.util.Optional;
import java.util.function.Consumer;
import org.scache.common.Clock;
import org.scache.common.shuffle.BlockSize;
import org.scache.worker.spill.SpillPolicy;

/**
 * A worker's storage put together: the {@link BlockStore} and the parts that put blocks in, move
 * them to disk and back, read them and land prefetched copies. Closing it releases every block's
 * memory and closes the spill store; the pool stays the caller's.
 */
final class WorkerStorage implements AutoCloseable {
  private final BlockStore store;
  private final BlockPuts puts;
  private final Optional<Spiller> spiller;
  private final SpilledReads reads;
  private final CopyLanding copies;
  private final SpillReadBudget readBudget;
  private final PlacementBook placements;

  /**
   * @param disk where blocks are spilled; empty: puts that do not fit are refused with STORE_FULL
   * @param readBudgetBytes memory for spilled blocks read back to be served, outside the reserve
   * @param quota how many blocks may be held, in all and per application
   * @param stored told the size of every block put (for the master)
   */
  WorkerStorage(MemoryPool pool, Optional<SpillStore> disk, SpillPolicy policy, PlacementBook placements,
      Clock clock, WorkerCounters counters, long readBudgetBytes, BlockQuota quota, Consumer<BlockSize> stored) {
    this.store = new BlockStore(pool, disk, policy, placements, clock, counters, quota);
    this.placements = placements;
    SpillReadBudget readBudget = new SpillReadBudget(readBudgetBytes);
    this.spiller = disk.map(d -> new Spiller(store, d, readBudget, counters));
    this.puts = new BlockPuts(store, spiller, counters, stored);
    this.reads = new SpilledReads(store, disk, readBudget, counters);
    this.copies = new CopyLanding(store);
    this.readBudget = readBudget;
  }

  /** Storage that never spills, with no quota, telling no one of its puts. */
  static WorkerStorage inMemory(MemoryPool pool) {
    return new WorkerStorage(pool, Optional.empty(), SpillPolicy.contextAware(), new PlacementBook(), Clock.SYSTEM,
        new WorkerCounters(), 64 << 20, BlockQuota.unlimited(), b -> { });
  }

  BlockStore store() {
    return store;
  }

  /** The placements the store's spill order reads; the store learns and forgets them. */
  PlacementBook placements() {
    return placements;
  }

  BlockPuts puts() {
    return puts;
  }

  Optional<Spiller> spiller() {
    return spiller;
  }

  SpilledReads reads() {
    return reads;
  }

  CopyLanding copies() {
    return copies;
  }

  /** Bytes of spill files on disk (dead blocks in files not yet deleted included). */
  long spillFileBytes() {
    return spiller.map(Spiller::fileBytes).orElse(0L);
  }

  /** Bytes of spill files taken by blocks no longer live. */
  long spillFileDeadBytes() {
    return spiller.map(Spiller::deadBytes).orElse(0L);
  }

  int spillFileCount() {
    return spiller.map(Spiller::fileCount).orElse(0);
  }

  /** Bytes of spilled blocks read back and not yet sent on. */
  long spillReadBufferBytes() {
    return readBudget.inUse();
  }

  @Override
  public void close() {
    reads.close();
    if (spiller.isPresent()) {
      spiller.get().close();
    } else {
      store.clear();
    }
  }
}
