package org.scache.worker.store;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.scache.common.Clock;
import org.scache.common.shuffle.BlockSize;
import org.scache.common.shuffle.RoundState;
import org.scache.worker.counters.WorkerCounters;
import org.scache.worker.spill.SpillPolicy;
import org.scache.worker.spill.SpillReadBudget;
import org.scache.worker.spill.SpillStore;

/**
 * A worker's storage put together: the {@link BlockStore} and the parts that put blocks in, move
 * them to disk and back, read them and land prefetched copies, each given the reserve and the reports
 * it works with. What the storage holds is told to the master ({@link #reportTo}) and read for the
 * stats ({@link #gauges}). Closing it releases every block's memory and closes the spill store; the
 * pool stays the caller's.
 */
public final class WorkerStorage implements AutoCloseable {
  private final MemoryPool pool;
  private final PlacementBook placements;
  private final StoreReports reports;
  private final BlockQuota.Limits blockLimits;
  private final BlockStore store;
  private final BlockPuts puts;
  private final Optional<Spiller> spiller;
  private final SpilledReads reads;
  private final CopyLanding copies;
  private final SpillReadBudget readBudget;

  /**
   * @param disk where blocks are spilled; empty: puts that do not fit are refused with STORE_FULL
   * @param readBudgetBytes memory for spilled blocks read back to be served, outside the reserve
   * @param quota how many blocks may be held, in all and per application
   */
  public WorkerStorage(MemoryPool pool, Optional<SpillStore> disk, SpillPolicy policy, PlacementBook placements,
      Clock clock, WorkerCounters counters, long readBudgetBytes, BlockQuota quota) {
    this.pool = pool;
    this.placements = placements;
    this.reports = new StoreReports(disk.isPresent());
    this.store = new BlockStore(disk, policy, placements, clock, counters, quota, reports);
    this.blockLimits = quota.limits();
    this.readBudget = new SpillReadBudget(readBudgetBytes);
    this.spiller = disk.map(d -> new Spiller(store, pool, d, readBudget, counters));
    this.puts = new BlockPuts(store, pool, spiller, counters, reports::stored);
    this.reads = new SpilledReads(store, disk, readBudget, counters);
    this.copies = new CopyLanding(store, pool);
  }

  /** Storage that never spills, with no quota. */
  public static WorkerStorage inMemory(MemoryPool pool) {
    return new WorkerStorage(pool, Optional.empty(), SpillPolicy.contextAware(), new PlacementBook(), Clock.SYSTEM,
        new WorkerCounters(), 64 << 20, BlockQuota.unlimited());
  }

  /** From now on tells {@code events} of every block put, every change of the rounds kept in part, every loss. */
  public void reportTo(StoreEvents events) {
    reports.events(events);
  }

  public BlockStore store() {
    return store;
  }

  /** The placements the store's spill order reads; the store learns and forgets them. */
  public PlacementBook placements() {
    return placements;
  }

  public BlockPuts puts() {
    return puts;
  }

  Optional<Spiller> spiller() {
    return spiller;
  }

  public SpilledReads reads() {
    return reads;
  }

  public CopyLanding copies() {
    return copies;
  }

  // ---------------------------------------------------------------- what the master is told

  /** The blocks held here at most, in all and for one owner. */
  public BlockQuota.Limits blockLimits() {
    return blockLimits;
  }

  public long reservedBytes() {
    return pool.reservedBytes();
  }

  /** Bytes of the reserve in use, including alignment and puts in progress. */
  public long usedBytes() {
    return pool.usedBytes();
  }

  public int blockCount() {
    return store.blockCount();
  }

  /** What the block limit counts held now, in the unit of {@link #blockLimits()}. */
  public long heldAsLimited() {
    return store.heldAsLimited();
  }

  /** Applications blocks are held of. */
  public Set<String> applications() {
    return store.applications();
  }

  /** Every block held but prefetched copies, with its size (for a master that lost track). */
  public List<BlockSize> inventory() {
    return store.inventory();
  }

  /** Bytes of the blocks held only on disk. */
  public long spilledBytes() {
    return store.spilledBytes();
  }

  /** The rounds this worker keeps only in part, as last reported. */
  public List<RoundState> incompleteRounds() {
    return reports.incompleteRounds();
  }

  /** Bytes of spill files on disk (dead blocks in files not yet deleted included). */
  public long spillFileBytes() {
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

  /** The storage's gauges for the worker's stats, named and described in {@code WorkerStatsCatalog}. */
  public Map<String, Long> gauges() {
    Map<String, Long> m = new LinkedHashMap<>();
    m.put("store.blocks", (long) store.blockCount());
    m.put("store.bytes", store.storedBytes());
    m.put("store.memory.bytes", store.memoryBytes());
    m.put("store.spilled.blocks", (long) store.spilledBlockCount());
    m.put("store.spilled.bytes", store.spilledBytes());
    m.put("spill.file.bytes", spillFileBytes());
    m.put("spill.file.dead.bytes", spillFileDeadBytes());
    m.put("spill.files", (long) spillFileCount());
    m.put("spill.read.buffer.bytes", spillReadBufferBytes());
    m.put("rounds.incomplete.here", (long) reports.incompleteRounds().size());
    m.put("rounds.incomplete.cluster", (long) placements.incompleteInClusterCount());
    m.put("memory.used.bytes", pool.usedBytes());
    m.put("memory.reserved.bytes", pool.reservedBytes());
    return m;
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
