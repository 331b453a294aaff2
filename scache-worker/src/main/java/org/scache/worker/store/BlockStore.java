package org.scache.worker.store;

import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Predicate;
import org.scache.common.BlockId;
import org.scache.common.Clock;
import org.scache.common.ScacheException;
import org.scache.common.ShuffleKey;
import org.scache.common.shuffle.BlockSize;
import org.scache.common.shuffle.ReduceMove;
import org.scache.common.shuffle.ShufflePlacement;
import org.scache.worker.counters.WorkerCounters;
import org.scache.worker.spill.SpillFile;
import org.scache.worker.spill.SpillPolicy;
import org.scache.worker.spill.SpillStore;

/**
 * The blocks a worker holds, each in its reserved {@link MemoryPool} or spilled to local disk, in the
 * order the {@link SpillPolicy} gives them ({@link BlockOrder}). Blocks are immutable: a second put of
 * the same id (same map attempt) is accepted and ignored. When a map's final attempt is declared, the
 * blocks of its other attempts are dropped.
 *
 * <p>The store only keeps blocks ({@link BlockIndex}) and moves them between states, each move atomic
 * and checked against the block's current state; what to move and when is decided by its parts:
 * {@link BlockPuts} (puts and commits), {@link Spiller} (eviction, loading back, compaction),
 * {@link SpilledReads} (reads from disk) and {@link CopyLanding} (prefetched copies). What changes of
 * its rounds and which blocks it lost, it tells its {@link StoreReports}. {@link WorkerStorage} puts
 * them together.
 *
 * <p>Lock order: the spiller's move lock, then this store, then the pool; the spill store and the
 * reports are never called while this store is locked.
 */
public final class BlockStore {
  private final Optional<SpillStore> disk;
  private final PlacementBook rounds;
  private final Clock clock;
  private final WorkerCounters counters;
  private final BlockQuota quota;
  private final StoreReports reports;
  /** Told when blocks were removed, so that freed memory and disk are used again. */
  private volatile Runnable afterRemoval = () -> { };

  // guarded by this
  private final BlockOrder order;
  private final BlockIndex index;
  private final RoomForMapBlocks room;

  /**
   * @param disk where blocks are spilled, whose places of removed blocks the store frees
   * @param rounds the placements the spill order reads
   * @param reports told of every change of the rounds kept in part here, and of lost blocks
   */
  BlockStore(Optional<SpillStore> disk, SpillPolicy policy, PlacementBook rounds, Clock clock,
      WorkerCounters counters, BlockQuota quota, StoreReports reports) {
    this.disk = disk;
    this.rounds = rounds;
    this.clock = clock;
    this.counters = counters;
    this.quota = quota;
    this.reports = reports;
    this.order = new BlockOrder(policy, rounds);
    this.index = new BlockIndex(quota, order);
    this.room = new RoomForMapBlocks(index, quota, counters);
  }

  void afterRemoval(Runnable action) {
    this.afterRemoval = action;
  }

  // ---------------------------------------------------------------- the schedule

  /** Learns a placement: the rounds of its reduces and of the earlier shuffles' reduces it moved. */
  public void scheduled(ShufflePlacement placement, long submissionTimeMillis, List<ReduceMove> moves) {
    rounds.scheduled(placement, submissionTimeMillis, moves);
    synchronized (this) {
      order.placementChanged(new ShuffleKey(placement.appId(), placement.shuffleId()));
      moves.stream().map(m -> new ShuffleKey(placement.appId(), m.shuffleId())).distinct()
          .forEach(order::placementChanged);
    }
    roundsMayHaveChanged();
  }

  /** The master's list of a shuffle's rounds that some worker keeps only in part. */
  public void incompleteInCluster(ShuffleKey shuffle, List<Integer> incompleteRounds) {
    Set<Integer> turned = rounds.incompleteInCluster(shuffle, incompleteRounds);
    if (turned.isEmpty()) {
      return;
    }
    synchronized (this) {
      order.roundsTurnedInCluster(shuffle, turned);
    }
  }

  /**
   * Tells the reports which rounds became, or stopped being, kept only in part here since they were
   * last told; a part that moves several blocks calls it once, after its moves.
   */
  void roundsMayHaveChanged() {
    reports.roundsMayHaveChanged(this::keptInPart);
  }

  private synchronized Set<BlockOrder.RoundKey> keptInPart() {
    return order.keptInPart();
  }

  // ---------------------------------------------------------------- adding blocks

  /**
   * Counts a block being put against the quota from now until it is committed or aborted, so that
   * puts in flight count as their blocks would; refuses it, before any memory is taken, when the
   * quota has no room. Returns what gives the count back (run once, just before the block is added,
   * or when the put is aborted); a put of a block held already counts nothing.
   */
  Runnable reserveQuota(BlockId id) {
    RoomForMapBlocks.Admission admission;
    int cost;
    synchronized (this) {
      if (index.contains(id)) {
        return () -> { };
      }
      boolean opens = index.opensMapAttempt(id);
      admission = room.admit(id, opens);
      cost = quota.cost(opens);
      if (admission.fits()) {
        quota.added(id.appId(), cost);
      }
    }
    settle(admission);
    return () -> {
      synchronized (this) {
        quota.removed(id.appId(), cost);
      }
    };
  }

  /**
   * Outside the store's lock: frees the disk of the copies an admission dropped and tells that memory was freed;
   * then throws the quota's refusal if the block did not fit.
   */
  private void settle(RoomForMapBlocks.Admission admission) {
    if (admission.dropped() > 0) {
      admission.onDisk().forEach(l -> disk.get().free(l));
      afterRemoval.run();
    }
    if (!admission.fits()) {
      throw admission.refusal();
    }
  }

  /**
   * Adds a block whose bytes are in memory, taking {@code data}: it is released when the block is
   * not added. False when a block of the same id is held.
   *
   * @throws ScacheException when the quota has no room for it
   */
  boolean addInMemory(BlockId id, ByteBuf data) {
    RoomForMapBlocks.Admission admission = null;
    ArrivingBlock block = ArrivingBlock.inMemory(id, data, false, clock.nanos());
    try {
      admission = admitAndAdd(block);
    } finally {
      if (admission == null || !admission.fits()) {
        block.release();
      }
    }
    return settled(admission);
  }

  /**
   * Adds a prefetched copy of a block another worker holds, taking {@code data} (released when the
   * copy is not added). False when the block is held here already or the quota has no room for it:
   * the block is then read from its holder.
   */
  boolean addCopy(BlockId id, ByteBuf data) {
    boolean added;
    ArrivingBlock block = ArrivingBlock.inMemory(id, data, true, clock.nanos());
    synchronized (this) {
      added = !index.contains(id) && quota.refusal(id, index.opensMapAttempt(id)) == null;
      if (added) {
        index.add(block);
      }
    }
    if (!added) {
      block.release();
    }
    return added;
  }

  /**
   * Adds a block written to disk when it was put; false when a block of the same id is held (the
   * caller frees {@code at} then).
   *
   * @throws ScacheException when the quota has no room for it (the caller frees {@code at})
   */
  boolean addSpilled(BlockId id, int size, SpillStore.Location at) {
    return settled(admitAndAdd(ArrivingBlock.spilled(id, size, at, clock.nanos())));
  }

  /**
   * Adds {@code block} when its id is not held yet and the room for map blocks admits it; the admission (whether
   * it fit, what it dropped), or null when a block of the same id is held.
   */
  private synchronized RoomForMapBlocks.Admission admitAndAdd(ArrivingBlock block) {
    if (index.contains(block.id())) {
      return null;
    }
    RoomForMapBlocks.Admission admission = room.admit(block.id(), index.opensMapAttempt(block.id()));
    if (admission.fits()) {
      index.add(block);
    }
    return admission;
  }

  /** Settles {@code admission} outside the lock ({@link #settle}); whether the block was added (false: held). */
  private boolean settled(RoomForMapBlocks.Admission admission) {
    if (admission == null) {
      return false;
    }
    settle(admission);
    return true;
  }

  public synchronized boolean contains(BlockId id) {
    return index.contains(id);
  }

  /** The size of block {@code id} when it is held here, in memory or spilled; empty when it is not. */
  public synchronized OptionalLong sizeOf(BlockId id) {
    StoredBlock b = index.get(id);
    return b == null ? OptionalLong.empty() : OptionalLong.of(b.size());
  }

  // ---------------------------------------------------------------- moves between memory and disk

  /** The first block in memory to leave when room is needed. */
  synchronized Optional<BlockOrder.Victim> firstVictim() {
    return order.firstVictim();
  }

  /** The next block in memory to leave after {@code previous}. */
  synchronized Optional<BlockOrder.Victim> victimAfter(BlockOrder.Victim previous) {
    return order.victimAfter(previous);
  }

  /** Whether a block not stored yet would be the first to leave memory. */
  synchronized boolean wouldLeaveFirst(BlockId id, long size) {
    return order.wouldLeaveFirst(id, size, clock.nanos());
  }

  /** The spilled, unread block the policy would keep longest. */
  synchronized Optional<Spilled> firstToLoadBack() {
    return order.firstToLoadBack().map(b -> new Spilled(b, b.spilled().orElseThrow()));
  }

  /** Whether {@code b} is still held, in memory. */
  synchronized boolean isHeldInMemory(StoredBlock b) {
    return index.holds(b) && b.inMemory();
  }

  /** Whether {@code b} is still held, spilled at {@code at}. */
  synchronized boolean isSpilledAt(StoredBlock b, SpillStore.Location at) {
    return index.holds(b) && b.spilled().orElse(null) == at;
  }

  /** Drops a prefetched copy held in memory; false if it is no longer there. */
  synchronized boolean dropCopy(StoredBlock copy) {
    if (!isHeldInMemory(copy) || !copy.isCopy()) {
      return false;
    }
    index.remove(copy);
    counters.droppedCopies.increment();
    return true;
  }

  /** The bytes of a block held in memory, retained for writing to disk; empty if it is no longer there. */
  synchronized Optional<ByteBuf> bytesToSpill(StoredBlock b) {
    return isHeldInMemory(b) ? Optional.of(b.retainedData()) : Optional.empty();
  }

  /** The block now lives at {@code at} only; false (the caller frees {@code at}) if it changed meanwhile. */
  synchronized boolean spilled(StoredBlock b, SpillStore.Location at) {
    if (!isHeldInMemory(b)) {
      return false;
    }
    b.spilledTo(at);
    index.spilled(b);
    counters.spilledBlocks.increment();
    counters.spilledBytes.add(b.size());
    return true;
  }

  /** A spilled block is back in memory, in {@code data}; false (the caller releases it) if it changed meanwhile. */
  synchronized boolean loadedBack(StoredBlock b, SpillStore.Location from, ByteBuf data) {
    if (!isSpilledAt(b, from)) {
      return false;
    }
    b.loaded(data);
    index.loadedBack(b);
    return true;
  }

  /** A spilled block's bytes were copied to {@code to}; false (the caller frees {@code to}) if it changed meanwhile. */
  synchronized boolean movedOnDisk(StoredBlock b, SpillStore.Location from, SpillStore.Location to) {
    if (!isSpilledAt(b, from)) {
      return false;
    }
    b.movedOnDisk(to);
    return true;
  }

  /** A block spilled and not in memory, and where. */
  record Spilled(StoredBlock block, SpillStore.Location at) {}

  /** The blocks lying in one of {@code files}. */
  synchronized List<Spilled> spilledIn(Set<SpillFile> files) {
    return index.spilledWhere(l -> files.contains(l.file())).stream()
        .map(b -> new Spilled(b, b.spilled().orElseThrow())).toList();
  }

  /**
   * Drops a block whose spilled bytes are corrupt, frees its place and reports it lost; nothing if
   * it was removed meanwhile.
   */
  void lose(StoredBlock b, String why) {
    Optional<SpillStore.Location> at;
    synchronized (this) {
      if (!index.holds(b)) {
        return;
      }
      at = index.remove(b);
    }
    at.ifPresent(l -> disk.get().free(l));
    counters.checksumFailures.increment();
    reports.lost(b.id(), why);
    roundsMayHaveChanged();
  }

  // ---------------------------------------------------------------- reads

  /** The block stored under exactly this id (attempt included). */
  synchronized Optional<StoredBlock> get(BlockId id) {
    return Optional.ofNullable(index.get(id));
  }

  /**
   * Reads a block held in memory for sending: the returned buffer keeps the memory alive until
   * released, even if the block is removed or spilled meanwhile. Empty when the block is not here
   * or only on disk ({@link SpilledReads} reads those too).
   */
  synchronized Optional<ByteBuf> read(BlockId id) {
    StoredBlock b = index.get(id);
    if (b == null || !b.inMemory()) {
      return Optional.empty();
    }
    touch(b);
    return Optional.of(b.retainedData());
  }

  /** What a read found of one block: its bytes in memory (retained), or where it is spilled. */
  record Found(Optional<ByteBuf> inMemory, Optional<Spilled> spilled) {
    static final Found NOTHING = new Found(Optional.empty(), Optional.empty());
  }

  /** Finds blocks for one read, in list order, and marks them used. */
  synchronized List<Found> find(List<BlockId> ids) {
    List<Found> out = new ArrayList<>(ids.size());
    for (BlockId id : ids) {
      StoredBlock b = index.get(id);
      if (b == null) {
        out.add(Found.NOTHING);
        continue;
      }
      touch(b);
      if (b.inMemory()) {
        out.add(new Found(Optional.of(b.retainedData()), Optional.empty()));
      } else {
        out.add(new Found(Optional.empty(), b.spilled().map(at -> new Spilled(b, at))));
      }
    }
    return out;
  }

  /** The bytes of {@code b} if it is held in memory now (it was loaded back meanwhile), retained. */
  synchronized Optional<ByteBuf> inMemoryNow(StoredBlock b) {
    return isHeldInMemory(b) ? Optional.of(b.retainedData()) : Optional.empty();
  }

  /** Where {@code b} is spilled now, if it is still held and spilled elsewhere than {@code at}. */
  synchronized Optional<SpillStore.Location> movedFrom(StoredBlock b, SpillStore.Location at) {
    if (!index.holds(b) || b.inMemory()) {
      return Optional.empty();
    }
    return b.spilled().filter(now -> now != at);
  }

  /** Pins a block held in memory for a local reader of the shared memory ({@link StoredBlock#pin()}). */
  public synchronized Optional<PinnedBytes> pin(BlockId id) {
    StoredBlock b = index.get(id);
    if (b == null) {
      return Optional.empty();
    }
    touch(b);
    return b.pin();
  }

  /** A reducer has read the block: it is kept only in case the reducer is retried, and spilled first. */
  public void markConsumed(BlockId id) {
    boolean turned;
    synchronized (this) {
      StoredBlock b = index.get(id);
      if (b == null || b.readByReducer()) {
        return;
      }
      b.markConsumed();
      turned = order.place(b);
    }
    if (turned) {
      roundsMayHaveChanged();
    }
  }

  /** Whether the block is held here as a prefetched copy. */
  public synchronized boolean isCopy(BlockId id) {
    StoredBlock b = index.get(id);
    return b != null && b.isCopy();
  }

  /** Whether a reducer has read the block (it is then kept only in case the reducer is retried). */
  public synchronized boolean isConsumed(BlockId id) {
    StoredBlock b = index.get(id);
    return b != null && b.readByReducer();
  }

  /** Whether the block is held here and only on disk. */
  public synchronized boolean isSpilled(BlockId id) {
    StoredBlock b = index.get(id);
    return b != null && !b.inMemory() && b.spilled().isPresent();
  }

  private void touch(StoredBlock b) {
    order.used(b, clock.nanos());
  }

  // ---------------------------------------------------------------- removal

  /** Declares {@code attempt} the final attempt of a map: blocks of its other attempts are dropped. */
  public void mapFinished(ShuffleKey shuffle, int mapId, int attempt) {
    removeWhere(() -> index.ofMap(shuffle, mapId), b -> b.attempt() != attempt);
    synchronized (this) {
      index.mapEnded(shuffle, mapId, attempt);
    }
  }

  /** A reducer committed: its input is read for the last time and freed. Returns the blocks freed. */
  public int reduceCommitted(ShuffleKey shuffle, int reduceId) {
    return removeWhere(() -> index.ofReduce(shuffle, reduceId), b -> true);
  }

  /** Frees every block of the shuffle and forgets its rounds. */
  public void removeShuffle(ShuffleKey shuffle) {
    removeWhere(() -> index.of(shuffle), b -> true);
    rounds.forgetShuffle(shuffle);
  }

  /** Frees every block of the application and forgets its rounds. */
  public void removeApplication(String appId) {
    List<ShuffleKey> shuffles;
    synchronized (this) {
      shuffles = index.shufflesOf(appId);
    }
    shuffles.forEach(this::removeShuffle);
    rounds.forgetApplication(appId);
  }

  /** Removes those of the blocks {@code candidates} lists (called under the lock) that {@code which} selects. */
  private int removeWhere(java.util.function.Supplier<List<StoredBlock>> candidates, Predicate<StoredBlock> which) {
    List<SpillStore.Location> onDisk = new ArrayList<>();
    int removed = 0;
    synchronized (this) {
      for (StoredBlock b : candidates.get()) {
        if (which.test(b)) {
          index.remove(b).ifPresent(onDisk::add);
          removed++;
        }
      }
    }
    onDisk.forEach(l -> disk.get().free(l));
    if (removed > 0) {
      roundsMayHaveChanged();
      afterRemoval.run();
    }
    return removed;
  }

  // ---------------------------------------------------------------- inventory and accounting

  /** Every block held, with its size (for reporting to a master that lost track). */
  synchronized List<BlockSize> inventory() {
    return index.inventory();
  }

  /** Applications this store holds blocks of. */
  synchronized Set<String> applications() {
    return index.applications();
  }

  synchronized int blockCount() {
    return index.blockCount();
  }

  /** What the block limit counts held now: blocks, or units of heap ({@link BlockQuota}), puts in flight too. */
  synchronized long heldAsLimited() {
    return quota.held();
  }

  synchronized int spilledBlockCount() {
    return index.spilledBlockCount();
  }

  /** Bytes of block data held, in memory and on disk. */
  synchronized long storedBytes() {
    return index.memoryBytes() + index.spilledBytes();
  }

  /** Bytes of the blocks held in memory. */
  synchronized long memoryBytes() {
    return index.memoryBytes();
  }

  /** Bytes of the blocks held only on disk. */
  synchronized long spilledBytes() {
    return index.spilledBytes();
  }

  /** Releases every block's memory (the spill files are the spiller's to close). */
  synchronized void clear() {
    index.clear();
  }
}
