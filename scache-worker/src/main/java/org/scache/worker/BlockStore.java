package org.scache.worker;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.scache.common.BlockId;
import org.scache.common.Clock;
import org.scache.common.DaemonThreads;
import org.scache.common.ScacheException;
import org.scache.common.ShuffleKey;
import org.scache.common.protocol.Status;
import org.scache.common.shuffle.BlockSize;
import org.scache.common.shuffle.RoundState;
import org.scache.worker.spill.SpillCandidate;
import org.scache.worker.spill.SpillPolicy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The blocks a worker holds: in its reserved {@link MemoryPool}, or spilled to local disk. Blocks
 * are immutable: a second put of the same id (same map attempt) is accepted and ignored. When a map's
 * final attempt is declared, the blocks of its other attempts are dropped.
 *
 * <p>With a {@link SpillStore}, a put that does not fit makes room: victims are taken in the order
 * of the {@link SpillPolicy}; prefetched copies are dropped (the original is on another worker),
 * other blocks are written to disk. When neither memory nor disk can take the put, it is refused with
 * {@link Status#RETRY_LATER}. When memory frees, spilled blocks are loaded back, highest priority
 * first, on the store's background thread. A spilled block is read from disk and checked against its
 * checksum; a mismatch makes the block lost, never served. Without a spill store a put that does not
 * fit is refused with {@link Status#STORE_FULL}.
 *
 * <p>Accounting is exact: every stored block's bytes count once, in {@link #memoryBytes()} or in
 * {@link #spilledBytes()}. Lock order: this store, then the pool; the spill store is never called
 * while this store is locked.
 */
final class BlockStore implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(BlockStore.class);
  /** A sealed spill file whose live blocks are at most this share of it has them moved out, and is deleted. */
  static final double COMPACT_LIVE_FRACTION = 0.25;

  /** A round of a shuffle: the unit the paper's all-or-nothing constraint keeps whole. */
  record RoundKey(ShuffleKey shuffle, int round) {}

  private final MemoryPool pool;
  private final Optional<SpillStore> disk;
  private final SpillPolicy policy;
  private final RoundBook rounds;
  private final Clock clock;
  private final WorkerCounters counters;
  private final SpillReadBudget readBudget;
  private final BlockQuota quota;
  /** Makes room for puts that do not fit, and loads spilled blocks back; one task at a time. */
  private final ExecutorService background;
  private final ExecutorService diskReads;
  private volatile StoreEvents events = StoreEvents.NONE;
  /** Held while blocks move between memory and disk, so that only one such move runs at a time. */
  private final Object moving = new Object();

  // guarded by this
  private final Map<BlockId, StoredBlock> blocks = new HashMap<>();
  private final Map<ShuffleKey, Set<BlockId>> byShuffle = new HashMap<>();
  private long memoryBytes;
  private long spilledBytes;
  private boolean reloadQueued;
  private boolean compactionQueued;

  // guarded by itself
  private final Set<RoundKey> reportedIncomplete = new HashSet<>();

  /** A store that never spills. */
  BlockStore(MemoryPool pool) {
    this(pool, Optional.empty(), SpillPolicy.contextAware(), new RoundBook(), Clock.SYSTEM, new WorkerCounters(),
        64 << 20, BlockQuota.unlimited());
  }

  /**
   * @param disk where blocks are spilled; empty: puts that do not fit are refused with STORE_FULL
   * @param readBudgetBytes memory for spilled blocks read back to be served, outside the reserve
   * @param quota how many blocks may be held, in all and per application
   */
  BlockStore(MemoryPool pool, Optional<SpillStore> disk, SpillPolicy policy, RoundBook rounds, Clock clock,
      WorkerCounters counters, long readBudgetBytes, BlockQuota quota) {
    this.pool = pool;
    this.disk = disk;
    this.policy = policy;
    this.rounds = rounds;
    this.clock = clock;
    this.counters = counters;
    this.readBudget = new SpillReadBudget(readBudgetBytes);
    this.quota = quota;
    this.background = Executors.newSingleThreadExecutor(DaemonThreads.named("scache-spill"));
    this.diskReads = Executors.newFixedThreadPool(2, DaemonThreads.named("scache-spill-read"));
  }


  /** Where changes of rounds and lost blocks are told. */
  void events(StoreEvents events) {
    this.events = events;
  }

  RoundBook rounds() {
    return rounds;
  }

  SpillPolicy policy() {
    return policy;
  }

  // ---------------------------------------------------------------- puts

  /** Starts receiving a block of {@code length} bytes, taking its memory now, spilling others if needed. */
  PendingPut begin(BlockId id, long length) {
    return fromFreeMemory(id, length).orElseGet(() -> makeRoom(id, length));
  }

  /** The put's memory when the reserve has room for it now, without spilling anything. */
  private Optional<PendingPut> fromFreeMemory(BlockId id, long length) {
    requireQuota(id);
    if (length == 0) {
      return Optional.of(new PendingPut(id, Unpooled.EMPTY_BUFFER));
    }
    requireCanEverHold(id, length);
    return pool.allocate(length).map(region -> new PendingPut(id, new BlockBuffer(pool, region)));
  }

  /**
   * {@link #begin} without blocking the caller: when the reserve has no room, the room is made on the
   * store's background thread.
   */
  CompletableFuture<PendingPut> beginAsync(BlockId id, long length) {
    try {
      Optional<PendingPut> now = fromFreeMemory(id, length);
      if (now.isPresent()) {
        return CompletableFuture.completedFuture(now.get());
      }
      if (disk.isEmpty()) {
        throw storeFull(id, length);
      }
      return CompletableFuture.supplyAsync(() -> makeRoom(id, length), background);
    } catch (ScacheException e) {
      return CompletableFuture.failedFuture(e);
    } catch (RejectedExecutionException e) {
      return CompletableFuture.failedFuture(new ScacheException(Status.SHUTTING_DOWN, "the worker is stopping"));
    }
  }

  /** Refuses a block the quota has no room for, before any memory is taken for it. */
  private synchronized void requireQuota(BlockId id) {
    if (!blocks.containsKey(id)) {
      ScacheException refusal = quota.refusal(id);
      if (refusal != null) {
        counters.limitRefusals.increment();
        throw refusal;
      }
    }
  }

  private void requireCanEverHold(BlockId id, long length) {
    if (!pool.canEverHold(length)) {
      throw new ScacheException(Status.BLOCK_TOO_LARGE, id + " has " + length
          + " bytes, more than one memory segment of this worker holds");
    }
  }

  private ScacheException storeFull(BlockId id, long length) {
    return new ScacheException(Status.STORE_FULL, "no room for " + id + " (" + length + " bytes): "
        + pool.usedBytes() + " of " + pool.reservedBytes() + " reserved bytes in use");
  }

  /**
   * Frees memory by the policy until {@code length} bytes can be had, and takes them. When the
   * policy ranks the incoming block itself ahead of every block in memory (it would be the first
   * victim), it is received outside the reserve and goes to disk on commit instead, as long as the
   * read budget and the spill capacity have room for it.
   *
   * @throws ScacheException STORE_FULL without spilling; RETRY_LATER when memory and disk are full
   */
  private PendingPut makeRoom(BlockId id, long length) {
    if (disk.isEmpty()) {
      throw storeFull(id, length);
    }
    boolean moved = false;
    try {
      synchronized (moving) {
        Optional<MemoryPool.Region> region = pool.allocate(length);
        if (region.isPresent()) {
          return new PendingPut(id, new BlockBuffer(pool, region.get()));
        }
        Victims victims = victims(id, length);
        if (victims.incomingFirst() && length <= Integer.MAX_VALUE && disk.get().hasRoomFor(length)) {
          long taken = readBudget.tryAcquire(length);
          if (taken >= 0) {
            return new PendingPut(id, new SpillReadBuffer((int) length, readBudget, taken), true);
          }
        }
        boolean diskFull = false;
        for (StoredBlock victim : victims.order()) {
          if (diskFull && !victim.isCopy()) {
            continue;
          }
          Eviction e = evict(victim);
          moved |= e != Eviction.SKIPPED && e != Eviction.DISK_FULL;
          diskFull |= e == Eviction.DISK_FULL;
          region = pool.allocate(length);
          if (region.isPresent()) {
            return new PendingPut(id, new BlockBuffer(pool, region.get()));
          }
        }
        throw new ScacheException(Status.RETRY_LATER, "no room for " + id + " (" + length + " bytes) on this worker: "
            + pool.usedBytes() + " of " + pool.reservedBytes() + " reserved bytes in use and "
            + disk.get().bytesOnDisk() + " bytes spilled; the spill disk is full or memory is held by readers");
      }
    } finally {
      if (moved) {
        reportRounds();
      }
    }
  }

  private enum Eviction { SPILLED, DROPPED, DISK_FULL, SKIPPED }

  /** Takes one block out of memory: a copy is dropped, any other block is written to disk. */
  private Eviction evict(StoredBlock victim) {
    ByteBuf data;
    synchronized (this) {
      if (blocks.get(victim.id()) != victim || !victim.inMemory()) {
        return Eviction.SKIPPED;
      }
      if (victim.isCopy()) {
        unlink(victim);
        memoryBytes -= victim.size();
        victim.release();
        counters.droppedCopies.increment();
        return Eviction.DROPPED;
      }
      data = victim.retainedData();
    }
    Optional<SpillStore.Location> at;
    try {
      at = disk.get().write(data);
    } finally {
      data.release();
    }
    if (at.isEmpty()) {
      counters.spillRefused.increment();
      return Eviction.DISK_FULL;
    }
    synchronized (this) {
      if (blocks.get(victim.id()) == victim && victim.inMemory()) {
        victim.spilledTo(at.get());
        memoryBytes -= victim.size();
        spilledBytes += victim.size();
        counters.spilledBlocks.increment();
        counters.spilledBytes.add(victim.size());
        return Eviction.SPILLED;
      }
    }
    disk.get().free(at.get());
    return Eviction.SKIPPED;
  }

  /** Blocks in memory, first victim first, and whether an incoming block would come before them all. */
  private record Victims(List<StoredBlock> order, boolean incomingFirst) {}

  private synchronized Victims victims(BlockId incoming, long incomingSize) {
    Set<RoundKey> incomplete = locallyIncomplete();
    List<Map.Entry<SpillCandidate, StoredBlock>> list = new ArrayList<>();
    for (StoredBlock b : blocks.values()) {
      if (b.inMemory() && b.size() > 0) {
        list.add(new AbstractMap.SimpleImmutableEntry<>(candidate(b, incomplete), b));
      }
    }
    list.sort(Map.Entry.comparingByKey(policy.victimOrder()));
    SpillCandidate in = candidate(incoming, incomingSize, false, false, clock.nanos(), incomplete);
    boolean first = list.isEmpty() || policy.victimOrder().compare(in, list.get(0).getKey()) < 0;
    return new Victims(list.stream().map(Map.Entry::getValue).toList(), first);
  }

  /** The policy's view of a block; guarded by this. */
  private SpillCandidate candidate(StoredBlock b, Set<RoundKey> incomplete) {
    return candidate(b.id(), b.size(), b.isCopy(), b.consumed(), b.lastAccessNanos(), incomplete);
  }

  private SpillCandidate candidate(BlockId id, long size, boolean copy, boolean consumed, long lastAccess,
      Set<RoundKey> incomplete) {
    ShuffleKey shuffle = id.shuffle();
    Optional<RoundBook.Placement> p = rounds.placement(shuffle, id.reduceId());
    if (p.isEmpty()) {
      return SpillCandidate.unscheduled(id, size, copy, consumed, lastAccess);
    }
    int round = p.get().round();
    boolean partial = incomplete.contains(new RoundKey(shuffle, round)) || rounds.incompleteInCluster(shuffle, round);
    return new SpillCandidate(id, size, copy, consumed, lastAccess, true, p.get().submissionTimeMillis(), round,
        partial);
  }

  /** Rounds of which this worker has spilled a block no reducer has read yet; guarded by this. */
  private Set<RoundKey> locallyIncomplete() {
    Set<RoundKey> out = new HashSet<>();
    for (StoredBlock b : blocks.values()) {
      if (!b.inMemory() && b.spilled().isPresent() && !b.consumed()) {
        rounds.placement(b.id().shuffle(), b.id().reduceId())
            .ifPresent(p -> out.add(new RoundKey(b.id().shuffle(), p.round())));
      }
    }
    return out;
  }

  /**
   * Makes a completely received block visible. Returns false when the same block was already
   * stored (the new copy is dropped: blocks are immutable).
   */
  boolean commit(PendingPut put) {
    if (!put.isComplete()) {
      put.abort();
      throw new ScacheException(Status.MALFORMED_MESSAGE, "block " + put.id() + " is incomplete");
    }
    if (put.toDisk()) {
      return commitToDisk(put.id(), put.take());
    }
    StoredBlock block = new StoredBlock(put.id(), put.take(), false, clock.nanos());
    synchronized (this) {
      if (blocks.containsKey(put.id())) {
        block.release();
        return false;
      }
      ScacheException refusal = quota.refusal(put.id());
      if (refusal != null) {
        block.release();
        counters.limitRefusals.increment();
        throw refusal;
      }
      link(block);
      memoryBytes += block.size();
    }
    return true;
  }

  /** Commits a block received outside the reserve by writing it to disk (or, if that fails, to free memory). */
  private boolean commitToDisk(BlockId id, ByteBuf data) {
    try {
      synchronized (this) {
        if (blocks.containsKey(id)) {
          return false;
        }
      }
      long size = data.readableBytes();
      Optional<SpillStore.Location> at = disk.get().write(data);
      if (at.isEmpty()) {
        MemoryPool.Region region = pool.allocate(size).orElseThrow(() -> new ScacheException(Status.RETRY_LATER,
            "no room for " + id + " (" + size + " bytes): the spill disk is full and so is memory"));
        BlockBuffer copy = new BlockBuffer(pool, region);
        copy.writeBytes(data, data.readerIndex(), (int) size);
        return commit(new PendingPut(id, copy));
      }
      boolean duplicate;
      ScacheException refusal = null;
      synchronized (this) {
        duplicate = blocks.containsKey(id);
        if (!duplicate) {
          refusal = quota.refusal(id);
        }
        if (!duplicate && refusal == null) {
          link(new StoredBlock(id, size, at.get(), clock.nanos()));
          spilledBytes += size;
        }
      }
      if (duplicate || refusal != null) {
        disk.get().free(at.get());
        if (refusal != null) {
          counters.limitRefusals.increment();
          throw refusal;
        }
        return false;
      }
      counters.spilledOnPut.increment();
      counters.spilledBlocks.increment();
      counters.spilledBytes.add(size);
      reportRounds();
      return true;
    } finally {
      data.release();
    }
  }

  /**
   * Stores copies of blocks held by other workers (prefetched) in one new region of the reserve,
   * each block in its own aligned part of it, in list order; {@code data} holds their bytes
   * concatenated and stays the caller's. Copies take free memory only: they never make other blocks
   * spill. Blocks already held are skipped. Returns the number of copies stored.
   *
   * @throws ScacheException STORE_FULL or BLOCK_TOO_LARGE when the region cannot be had
   */
  int storeCopies(List<BlockSize> layout, ByteBuf data) {
    long total = 0;
    for (BlockSize b : layout) {
      total += b.size() == 0 ? 0 : MemoryPool.align(b.size());
    }
    List<ByteBuf> parts = new ArrayList<>(layout.size());
    if (total > 0) {
      if (!pool.canEverHold(total)) {
        throw new ScacheException(Status.BLOCK_TOO_LARGE, "a prefetch region of " + total
            + " bytes is larger than one memory segment");
      }
      MemoryPool.Region region = pool.allocate(total).orElseThrow(() -> storeFull(layout.get(0).blockId(),
          data.readableBytes()));
      long at = 0;
      int from = data.readerIndex();
      for (BlockSize b : layout) {
        int size = (int) b.size();
        if (size == 0) {
          parts.add(Unpooled.EMPTY_BUFFER);
          continue;
        }
        BlockBuffer part = new BlockBuffer(pool, pool.adopt(region.segment(), region.offset() + at, size));
        part.writeBytes(data, from, size);
        parts.add(part);
        at += MemoryPool.align(size);
        from += size;
      }
    } else {
      layout.forEach(b -> parts.add(Unpooled.EMPTY_BUFFER));
    }
    int stored = 0;
    long now = clock.nanos();
    synchronized (this) {
      for (int i = 0; i < layout.size(); i++) {
        BlockId id = layout.get(i).blockId();
        if (blocks.containsKey(id) || quota.refusal(id) != null) {
          // a copy the quota has no room for is left to be read from its holder
          parts.get(i).release();
          continue;
        }
        StoredBlock copy = new StoredBlock(id, parts.get(i), true, now);
        link(copy);
        memoryBytes += copy.size();
        stored++;
      }
    }
    return stored;
  }

  // ---------------------------------------------------------------- reads

  /** The block stored under exactly this id (attempt included). */
  synchronized Optional<StoredBlock> get(BlockId id) {
    return Optional.ofNullable(blocks.get(id));
  }

  /**
   * Reads a block held in memory for sending: the returned buffer keeps the memory alive until
   * released, even if the block is removed or spilled meanwhile. Empty when the block is not here
   * or only on disk ({@link #readAsync} reads those too).
   */
  synchronized Optional<ByteBuf> read(BlockId id) {
    StoredBlock b = blocks.get(id);
    if (b == null || !b.inMemory()) {
      return Optional.empty();
    }
    b.touch(clock.nanos());
    return Optional.of(b.retainedData());
  }

  /**
   * Reads a block wherever it is held here, in memory or on disk: a spilled block is read into a
   * buffer outside the reserve (bounded by the read budget) and checked against its checksum. Empty
   * when the block is not held here.
   *
   * @return fails with BLOCK_NOT_FOUND when the spilled bytes do not match their checksum (the block
   *     is then lost and reported) or the block was removed while it was read
   */
  CompletableFuture<Optional<ByteBuf>> readAsync(BlockId id) {
    return readAllAsync(List.of(id)).thenApply(list -> list.get(0));
  }

  /**
   * Reads several blocks for one answer, as {@link #readAsync} does, in list order. The spilled ones
   * take their total size from the read budget at once (an answer larger than the whole budget takes
   * all of it and is read alone), so that the reads of one answer never wait for each other. All
   * or nothing: when one read fails, every buffer is released and the future fails.
   */
  CompletableFuture<List<Optional<ByteBuf>>> readAllAsync(List<BlockId> ids) {
    List<Optional<ByteBuf>> out = new ArrayList<>(ids.size());
    List<Integer> spilledAt = new ArrayList<>();
    List<StoredBlock> spilledBlocks = new ArrayList<>();
    List<SpillStore.Location> locations = new ArrayList<>();
    long total = 0;
    synchronized (this) {
      long now = clock.nanos();
      for (BlockId id : ids) {
        StoredBlock b = blocks.get(id);
        if (b == null) {
          out.add(Optional.empty());
          continue;
        }
        b.touch(now);
        if (b.inMemory()) {
          out.add(Optional.of(b.retainedData()));
          continue;
        }
        Optional<SpillStore.Location> at = b.spilled();
        out.add(Optional.empty());
        if (at.isPresent()) {
          spilledAt.add(out.size() - 1);
          spilledBlocks.add(b);
          locations.add(at.get());
          total += at.get().length();
        }
      }
    }
    if (spilledAt.isEmpty()) {
      return CompletableFuture.completedFuture(out);
    }
    return readBudget.acquire(total).thenApplyAsync(taken -> {
      long left = taken;
      try {
        for (int i = 0; i < spilledAt.size(); i++) {
          long share = Math.min(left, locations.get(i).length());
          left -= share;
          out.set(spilledAt.get(i), Optional.of(readSpilled(spilledBlocks.get(i), locations.get(i), share)));
        }
        return out;
      } catch (RuntimeException e) {
        out.forEach(b -> b.ifPresent(ByteBuf::release));
        if (left > 0) {
          readBudget.release(left);
        }
        throw e;
      }
    }, diskReads);
  }

  private ByteBuf readSpilled(StoredBlock b, SpillStore.Location at, long taken) {
    SpillReadBuffer buf = new SpillReadBuffer(at.length(), readBudget, taken);
    try {
      disk.get().read(at, buf);
      counters.spillReadBlocks.increment();
      counters.spillReadBytes.add(at.length());
      return buf;
    } catch (SpillStore.ChecksumMismatchException e) {
      buf.release();
      lose(b, e);
      throw new ScacheException(Status.BLOCK_NOT_FOUND, b.id() + " is lost: its spilled bytes failed their "
          + "checksum; re-run map " + b.id().mapId());
    } catch (IOException e) {
      buf.release();
      SpillStore.Location movedTo = null;
      synchronized (this) {
        StoredBlock now = blocks.get(b.id());
        if (now != null && now.inMemory()) {
          return now.retainedData();
        }
        if (now != null && now.spilled().isPresent() && now.spilled().get() != at) {
          movedTo = now.spilled().get();
        }
      }
      if (movedTo != null) {
        // the spill file was compacted while this read ran: read the block where it lies now
        return readSpilled(b, movedTo, 0);
      }
      throw new ScacheException(Status.BLOCK_NOT_FOUND, b.id() + " is no longer stored here (" + e.getMessage() + ")");
    }
  }

  /** Pins a block held in memory for a local reader of the shared memory ({@link StoredBlock#pin()}). */
  synchronized Optional<StoredBlock.Pinned> pin(BlockId id) {
    StoredBlock b = blocks.get(id);
    if (b == null) {
      return Optional.empty();
    }
    b.touch(clock.nanos());
    return b.pin();
  }

  /** A reducer has read the block: it is kept only in case the reducer is retried, and spilled first. */
  synchronized void markConsumed(BlockId id) {
    StoredBlock b = blocks.get(id);
    if (b != null) {
      b.markConsumed();
    }
  }

  /** Whether the block is held here as a prefetched copy. */
  synchronized boolean isCopy(BlockId id) {
    StoredBlock b = blocks.get(id);
    return b != null && b.isCopy();
  }

  /** Whether the block is held here and only on disk. */
  synchronized boolean isSpilled(BlockId id) {
    StoredBlock b = blocks.get(id);
    return b != null && !b.inMemory() && b.spilled().isPresent();
  }

  // ---------------------------------------------------------------- reload

  /** Loads spilled blocks back soon, on the background thread, if any is spilled. */
  void reloadSoon() {
    if (disk.isEmpty()) {
      return;
    }
    synchronized (this) {
      if (reloadQueued || spilledBytes == 0) {
        return;
      }
      reloadQueued = true;
    }
    try {
      background.execute(() -> {
        synchronized (this) {
          reloadQueued = false;
        }
        reloadNow();
      });
    } catch (RejectedExecutionException e) {
      LOG.debug("not reloading: the store is closed");
    }
  }

  /**
   * Loads spilled blocks no reducer has read back into free memory, in the reverse of the spill
   * order (the block the policy would keep longest first), until the next does not fit. Returns the
   * number loaded.
   */
  int reloadNow() {
    if (disk.isEmpty()) {
      return 0;
    }
    int loaded = 0;
    synchronized (moving) {
      while (true) {
        StoredBlock next;
        SpillStore.Location at;
        synchronized (this) {
          next = firstToReload();
          if (next == null) {
            break;
          }
          at = next.spilled().orElseThrow();
        }
        Optional<MemoryPool.Region> region = pool.allocate(next.size());
        if (region.isEmpty()) {
          break;
        }
        BlockBuffer buf = new BlockBuffer(pool, region.get());
        try {
          disk.get().read(at, buf);
        } catch (SpillStore.ChecksumMismatchException e) {
          buf.release();
          lose(next, e);
          continue;
        } catch (IOException e) {
          buf.release();
          synchronized (this) {
            if (blocks.get(next.id()) == next && next.spilled().orElse(null) == at) {
              LOG.warn("cannot load {} back from disk: {}", next.id(), e.toString());
              break;
            }
          }
          continue;
        }
        boolean installed;
        synchronized (this) {
          installed = blocks.get(next.id()) == next && next.spilled().orElse(null) == at;
          if (installed) {
            next.loaded(buf);
            memoryBytes += next.size();
            spilledBytes -= next.size();
          }
        }
        if (!installed) {
          buf.release();
          continue;
        }
        disk.get().free(at);
        counters.reloadedBlocks.increment();
        counters.reloadedBytes.add(next.size());
        loaded++;
      }
    }
    if (loaded > 0) {
      reportRounds();
      compactSoon();
    }
    return loaded;
  }

  // ---------------------------------------------------------------- spill compaction

  /** Compacts sparse spill files soon, on the background thread, if there are any. */
  void compactSoon() {
    if (disk.isEmpty() || disk.get().sparseFiles(COMPACT_LIVE_FRACTION).isEmpty()) {
      return;
    }
    synchronized (this) {
      if (compactionQueued) {
        return;
      }
      compactionQueued = true;
    }
    try {
      background.execute(() -> {
        synchronized (this) {
          compactionQueued = false;
        }
        compactNow();
      });
    } catch (RejectedExecutionException e) {
      LOG.debug("not compacting: the store is closed");
    }
  }

  /**
   * Moves the live blocks of every sparse spill file ({@link #COMPACT_LIVE_FRACTION}) to the end of
   * the current one, so that the sparse file is deleted and its dead space given back. A block read,
   * reloaded or removed meanwhile keeps its old place (the moved copy is freed); a reader that finds
   * the old place gone reads the new one. Stops when the disk has no room for a block. Returns the
   * number of blocks moved.
   */
  int compactNow() {
    if (disk.isEmpty()) {
      return 0;
    }
    int moved = 0;
    synchronized (moving) {
      Set<SpillFile> sparse = new HashSet<>(disk.get().sparseFiles(COMPACT_LIVE_FRACTION));
      record Move(StoredBlock block, SpillStore.Location from) {}
      List<Move> moves = new ArrayList<>();
      synchronized (this) {
        for (StoredBlock b : blocks.values()) {
          b.spilled().filter(l -> !b.inMemory() && sparse.contains(l.file()))
              .ifPresent(l -> moves.add(new Move(b, l)));
        }
      }
      for (Move m : moves) {
        StoredBlock b = m.block();
        SpillStore.Location at = m.from();
        long taken = readBudget.acquire(at.length()).join();
        SpillReadBuffer buf = new SpillReadBuffer(at.length(), readBudget, taken);
        Optional<SpillStore.Location> to;
        try {
          disk.get().read(at, buf);
          to = disk.get().write(buf);
        } catch (IOException e) {
          // the block was freed meanwhile, or its bytes are bad: a read will find out and report it
          continue;
        } finally {
          buf.release();
        }
        if (to.isEmpty()) {
          return moved;
        }
        boolean installed;
        synchronized (this) {
          installed = blocks.get(b.id()) == b && b.spilled().orElse(null) == at;
          if (installed) {
            b.movedOnDisk(to.get());
          }
        }
        disk.get().free(installed ? at : to.get());
        if (installed) {
          moved++;
          counters.spillCompactedBlocks.increment();
        }
      }
    }
    return moved;
  }

  /** The spilled, unread block the policy would keep longest; guarded by this. */
  private StoredBlock firstToReload() {
    Set<RoundKey> incomplete = locallyIncomplete();
    StoredBlock best = null;
    SpillCandidate bestCandidate = null;
    for (StoredBlock b : blocks.values()) {
      if (b.inMemory() || b.spilled().isEmpty() || b.consumed()) {
        continue;
      }
      SpillCandidate c = candidate(b, incomplete);
      if (best == null || policy.victimOrder().compare(c, bestCandidate) > 0) {
        best = b;
        bestCandidate = c;
      }
    }
    return best;
  }

  /** Drops a block whose spilled bytes are corrupt, and reports it lost. */
  private void lose(StoredBlock b, IOException cause) {
    Optional<SpillStore.Location> at;
    synchronized (this) {
      if (blocks.get(b.id()) != b) {
        return;
      }
      unlink(b);
      if (b.inMemory()) {
        memoryBytes -= b.size();
      } else {
        spilledBytes -= b.size();
      }
      at = b.release();
    }
    at.ifPresent(l -> disk.get().free(l));
    counters.checksumFailures.increment();
    LOG.warn("block {} is lost: {}", b.id(), cause.getMessage());
    events.blocksLost(List.of(b.id()));
    reportRounds();
  }

  /** Tells {@link #events} which rounds became, or stopped being, kept only in part here. */
  private void reportRounds() {
    if (disk.isEmpty()) {
      return;
    }
    synchronized (reportedIncomplete) {
      Set<RoundKey> now;
      synchronized (this) {
        now = locallyIncomplete();
      }
      List<RoundState> changes = new ArrayList<>();
      for (RoundKey k : now) {
        if (!reportedIncomplete.contains(k)) {
          changes.add(new RoundState(k.shuffle().appId(), k.shuffle().shuffleId(), k.round(), true));
        }
      }
      for (RoundKey k : reportedIncomplete) {
        if (!now.contains(k)) {
          changes.add(new RoundState(k.shuffle().appId(), k.shuffle().shuffleId(), k.round(), false));
        }
      }
      reportedIncomplete.clear();
      reportedIncomplete.addAll(now);
      if (!changes.isEmpty()) {
        events.roundsChanged(changes);
      }
    }
  }

  /** The rounds this worker keeps only in part now (to tell a master that lost track). */
  List<RoundState> incompleteRounds() {
    synchronized (reportedIncomplete) {
      return reportedIncomplete.stream().map(k -> new RoundState(k.shuffle().appId(),
          k.shuffle().shuffleId(), k.round(), true)).toList();
    }
  }

  // ---------------------------------------------------------------- removal

  /** Declares {@code attempt} the final attempt of a map: blocks of its other attempts are dropped. */
  void mapFinished(ShuffleKey shuffle, int mapId, int attempt) {
    removeWhere(shuffle, id -> id.mapId() == mapId && id.attempt() != attempt);
  }

  /** A reducer committed: its input is read for the last time and freed. Returns the blocks freed. */
  int reduceCommitted(ShuffleKey shuffle, int reduceId) {
    return removeWhere(shuffle, id -> id.reduceId() == reduceId);
  }

  void removeShuffle(ShuffleKey shuffle) {
    removeWhere(shuffle, id -> true);
  }

  void removeApplication(String appId) {
    List<ShuffleKey> shuffles;
    synchronized (this) {
      shuffles = byShuffle.keySet().stream().filter(k -> k.appId().equals(appId)).toList();
    }
    shuffles.forEach(this::removeShuffle);
  }

  private int removeWhere(ShuffleKey shuffle, Predicate<BlockId> which) {
    List<SpillStore.Location> onDisk = new ArrayList<>();
    int removed = 0;
    synchronized (this) {
      Set<BlockId> ids = byShuffle.get(shuffle);
      if (ids == null) {
        return 0;
      }
      List<BlockId> matching = ids.stream().filter(which).toList();
      for (BlockId id : matching) {
        StoredBlock b = blocks.get(id);
        unlink(b);
        if (b.inMemory()) {
          memoryBytes -= b.size();
        } else if (b.spilled().isPresent()) {
          spilledBytes -= b.size();
        }
        b.release().ifPresent(onDisk::add);
        removed++;
      }
    }
    onDisk.forEach(l -> disk.get().free(l));
    if (removed > 0) {
      reportRounds();
      reloadSoon();
    }
    if (!onDisk.isEmpty()) {
      compactSoon();
    }
    return removed;
  }

  /** Adds a block to the indexes; guarded by this. */
  private void link(StoredBlock b) {
    blocks.put(b.id(), b);
    quota.added(b.id());
    byShuffle.computeIfAbsent(b.id().shuffle(), k -> new HashSet<>()).add(b.id());
  }

  /** Removes a block from the indexes; guarded by this. */
  private void unlink(StoredBlock b) {
    if (blocks.remove(b.id()) != null) {
      quota.removed(b.id());
    }
    Set<BlockId> ids = byShuffle.get(b.id().shuffle());
    if (ids != null) {
      ids.remove(b.id());
      if (ids.isEmpty()) {
        byShuffle.remove(b.id().shuffle());
      }
    }
  }

  // ---------------------------------------------------------------- inventory and accounting

  /** Every block held, with its size (for reporting to a master that lost track). */
  synchronized List<BlockSize> inventory() {
    List<BlockSize> list = new ArrayList<>(blocks.size());
    blocks.values().forEach(b -> {
      if (!b.isCopy()) {
        list.add(new BlockSize(b.id(), b.size()));
      }
    });
    return list;
  }

  /** Applications this store holds blocks of. */
  synchronized Set<String> applications() {
    Set<String> apps = new HashSet<>();
    byShuffle.keySet().forEach(k -> apps.add(k.appId()));
    return apps;
  }

  synchronized int blockCount() {
    return blocks.size();
  }

  synchronized int spilledBlockCount() {
    int n = 0;
    for (StoredBlock b : blocks.values()) {
      if (!b.inMemory() && b.spilled().isPresent()) {
        n++;
      }
    }
    return n;
  }

  /** Bytes of block data held, in memory and on disk. */
  synchronized long storedBytes() {
    return memoryBytes + spilledBytes;
  }

  /** Bytes of the blocks held in memory. */
  synchronized long memoryBytes() {
    return memoryBytes;
  }

  /** Bytes of the blocks held only on disk. */
  synchronized long spilledBytes() {
    return spilledBytes;
  }

  /** Bytes of spill files on disk (dead blocks in files not yet deleted included). */
  long spillFileBytes() {
    return disk.map(SpillStore::bytesOnDisk).orElse(0L);
  }

  /** Bytes of spill files taken by blocks no longer live, given back when their file is deleted or compacted. */
  long spillFileDeadBytes() {
    return disk.map(d -> d.bytesOnDisk() - d.liveBytes()).orElse(0L);
  }

  int spillFileCount() {
    return disk.map(SpillStore::fileCount).orElse(0);
  }

  /** Bytes of spilled blocks read back and not yet sent on. */
  long spillReadBufferBytes() {
    return readBudget.inUse();
  }

  /** Bytes of the reserve in use, including alignment and puts in progress. */
  long usedBytes() {
    return pool.usedBytes();
  }

  long reservedBytes() {
    return pool.reservedBytes();
  }

  /** Waits until the background thread has run what was queued before this call (for tests). */
  void awaitBackground() throws InterruptedException {
    try {
      background.submit(() -> { }).get(30, TimeUnit.SECONDS);
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    background.shutdownNow();
    diskReads.shutdownNow();
    synchronized (moving) {
      synchronized (this) {
        blocks.values().forEach(StoredBlock::release);
        blocks.clear();
        byShuffle.clear();
        memoryBytes = 0;
        spilledBytes = 0;
      }
    }
    disk.ifPresent(SpillStore::close);
  }
}
