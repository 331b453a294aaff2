package org.scache.worker.store;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.scache.common.BlockId;
import org.scache.common.DaemonThreads;
import org.scache.common.ScacheException;
import org.scache.common.protocol.Status;
import org.scache.worker.counters.WorkerCounters;
import org.scache.worker.spill.SpillFile;
import org.scache.worker.spill.SpillPolicy;
import org.scache.worker.spill.SpillReadBudget;
import org.scache.worker.spill.SpillReadBuffer;
import org.scache.worker.spill.SpillStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves a {@link BlockStore}'s blocks between memory and its {@link SpillStore}: makes room for a put
 * that does not fit by evicting blocks in the {@link SpillPolicy}'s order (prefetched copies are
 * dropped, since their original is on another worker; other blocks are written to disk), loads
 * spilled blocks back when memory frees, highest priority first, and compacts sparse spill files.
 * Loading back and compaction run on one background thread, and one move runs at a time.
 */
final class Spiller implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Spiller.class);
  /** A sealed spill file whose live blocks are at most this share of it has them moved out, and is deleted. */
  static final double COMPACT_LIVE_FRACTION = 0.25;

  private final BlockStore store;
  private final MemoryPool pool;
  private final SpillStore disk;
  private final SpillReadBudget readBudget;
  private final WorkerCounters counters;
  private final ExecutorService background = Executors.newSingleThreadExecutor(DaemonThreads.named("scache-spill"));
  /** Held while blocks move between memory and disk, so that only one such move runs at a time. */
  private final Object moving = new Object();
  // guarded by this
  private boolean reloadQueued;
  private boolean compactionQueued;

  /** @param pool the reserve the store's blocks in memory take */
  Spiller(BlockStore store, MemoryPool pool, SpillStore disk, SpillReadBudget readBudget, WorkerCounters counters) {
    this.store = store;
    this.pool = pool;
    this.disk = disk;
    this.readBudget = readBudget;
    this.counters = counters;
    store.afterRemoval(() -> {
      reloadSoon();
      compactSoon();
    });
  }

  /** Where room for puts is made and blocks are loaded back; one task at a time. */
  Executor background() {
    return background;
  }

  // ---------------------------------------------------------------- eviction

  /**
   * Frees memory by the policy until {@code length} bytes can be had, and takes them. When the
   * policy ranks the incoming block itself ahead of every block in memory (it would be the first
   * victim), it is received outside the reserve and goes to disk on commit instead, as long as the
   * read budget and the spill capacity have room for it.
   *
   * @throws ScacheException RETRY_LATER when memory and disk are full
   */
  PendingPut makeRoom(BlockId id, long length) {
    boolean moved = false;
    try {
      synchronized (moving) {
        Optional<MemoryPool.Region> region = pool.allocate(length);
        if (region.isPresent()) {
          return new PendingPut(id, new BlockBuffer(pool, region.get()));
        }
        if (store.wouldLeaveFirst(id, length) && length <= Integer.MAX_VALUE && disk.hasRoomFor(length)) {
          long taken = readBudget.tryAcquire(length);
          if (taken >= 0) {
            return new PendingPut(id, new SpillReadBuffer((int) length, readBudget, taken), true);
          }
        }
        boolean diskFull = false;
        Optional<BlockOrder.Victim> next = store.firstVictim();
        while (next.isPresent()) {
          BlockOrder.Victim victim = next.get();
          if (!diskFull || victim.block().isCopy()) {
            Eviction e = evict(victim.block());
            moved |= e == Eviction.SPILLED || e == Eviction.DROPPED;
            diskFull |= e == Eviction.DISK_FULL;
            region = pool.allocate(length);
            if (region.isPresent()) {
              return new PendingPut(id, new BlockBuffer(pool, region.get()));
            }
          }
          next = store.victimAfter(victim);
        }
        throw new ScacheException(Status.RETRY_LATER, "no room for " + id + " (" + length + " bytes) on this worker: "
            + pool.usedBytes() + " of " + pool.reservedBytes() + " reserved bytes in use and "
            + disk.bytesOnDisk() + " bytes spilled; the spill disk is full or memory is held by readers");
      }
    } finally {
      if (moved) {
        store.roundsMayHaveChanged();
      }
    }
  }

  private enum Eviction { SPILLED, DROPPED, DISK_FULL, SKIPPED }

  /** Takes one block out of memory: a copy is dropped, any other block is written to disk. */
  private Eviction evict(StoredBlock victim) {
    if (victim.isCopy()) {
      return store.dropCopy(victim) ? Eviction.DROPPED : Eviction.SKIPPED;
    }
    Optional<ByteBuf> data = store.bytesToSpill(victim);
    if (data.isEmpty()) {
      return Eviction.SKIPPED;
    }
    Optional<SpillStore.Location> at;
    try {
      at = disk.write(data.get());
    } finally {
      data.get().release();
    }
    if (at.isEmpty()) {
      counters.spillRefused.increment();
      return Eviction.DISK_FULL;
    }
    if (store.spilled(victim, at.get())) {
      return Eviction.SPILLED;
    }
    disk.free(at.get());
    return Eviction.SKIPPED;
  }

  /**
   * Stores a block received outside the reserve by writing it to disk; when the disk is full, in
   * free memory instead. False when the same block was already stored. Takes {@code data}.
   */
  boolean commitToDisk(BlockId id, ByteBuf data) {
    try {
      if (store.contains(id)) {
        return false;
      }
      int size = data.readableBytes();
      Optional<SpillStore.Location> at = disk.write(data);
      if (at.isEmpty()) {
        MemoryPool.Region region = pool.allocate(size).orElseThrow(() -> new ScacheException(Status.RETRY_LATER,
            "no room for " + id + " (" + size + " bytes): the spill disk is full and so is memory"));
        BlockBuffer copy = new BlockBuffer(pool, region);
        copy.writeBytes(data, data.readerIndex(), size);
        return store.addInMemory(id, copy);
      }
      boolean added;
      try {
        added = store.addSpilled(id, size, at.get());
      } catch (ScacheException refused) {
        disk.free(at.get());
        throw refused;
      }
      if (!added) {
        disk.free(at.get());
        return false;
      }
      counters.spilledOnPut.increment();
      counters.spilledBlocks.increment();
      counters.spilledBytes.add(size);
      store.roundsMayHaveChanged();
      return true;
    } finally {
      data.release();
    }
  }

  // ---------------------------------------------------------------- loading back

  /** Loads spilled blocks back soon, on the background thread, if any is spilled. */
  void reloadSoon() {
    synchronized (this) {
      if (reloadQueued || store.spilledBytes() == 0) {
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
    int loaded = 0;
    synchronized (moving) {
      while (true) {
        Optional<BlockStore.Spilled> first = store.firstToLoadBack();
        if (first.isEmpty()) {
          break;
        }
        StoredBlock next = first.get().block();
        SpillStore.Location at = first.get().at();
        Optional<MemoryPool.Region> region = pool.allocate(next.size());
        if (region.isEmpty()) {
          break;
        }
        BlockBuffer buf = new BlockBuffer(pool, region.get());
        try {
          disk.read(at, buf);
        } catch (SpillStore.ChecksumMismatchException e) {
          buf.release();
          store.lose(next, e.getMessage());
          continue;
        } catch (IOException e) {
          buf.release();
          if (store.isSpilledAt(next, at)) {
            LOG.warn("cannot load {} back from disk: {}", next.id(), e.toString());
            break;
          }
          continue;
        }
        if (!store.loadedBack(next, at, buf)) {
          buf.release();
          continue;
        }
        disk.free(at);
        counters.reloadedBlocks.increment();
        counters.reloadedBytes.add(next.size());
        loaded++;
      }
    }
    if (loaded > 0) {
      store.roundsMayHaveChanged();
      compactSoon();
    }
    return loaded;
  }

  // ---------------------------------------------------------------- compaction

  /** Compacts sparse spill files soon, on the background thread, if there are any. */
  void compactSoon() {
    if (disk.sparseFiles(COMPACT_LIVE_FRACTION).isEmpty()) {
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
    int moved = 0;
    synchronized (moving) {
      Set<SpillFile> sparse = new HashSet<>(disk.sparseFiles(COMPACT_LIVE_FRACTION));
      for (BlockStore.Spilled s : store.spilledIn(sparse)) {
        SpillStore.Location at = s.at();
        long taken = readBudget.acquire(at.length()).join();
        SpillReadBuffer buf = new SpillReadBuffer(at.length(), readBudget, taken);
        Optional<SpillStore.Location> to;
        try {
          disk.read(at, buf);
          to = disk.write(buf);
        } catch (IOException e) {
          // the block was freed meanwhile, or its bytes are bad: a read will find out and report it
          continue;
        } finally {
          buf.release();
        }
        if (to.isEmpty()) {
          return moved;
        }
        boolean installed = store.movedOnDisk(s.block(), at, to.get());
        disk.free(installed ? at : to.get());
        if (installed) {
          moved++;
          counters.spillCompactedBlocks.increment();
        }
      }
    }
    return moved;
  }

  // ---------------------------------------------------------------- gauges

  /** Bytes of spill files on disk (dead blocks in files not yet deleted included). */
  long fileBytes() {
    return disk.bytesOnDisk();
  }

  /** Bytes of spill files taken by blocks no longer live, given back when their file is deleted or compacted. */
  long deadBytes() {
    return disk.bytesOnDisk() - disk.liveBytes();
  }

  int fileCount() {
    return disk.fileCount();
  }

  /** Waits until the background thread has run what was queued before this call (for tests). */
  void awaitBackground() throws InterruptedException {
    try {
      background.submit(() -> { }).get(30, TimeUnit.SECONDS);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Stops the background thread; blocks being moved finish their move first. */
  @Override
  public void close() {
    background.shutdownNow();
    synchronized (moving) {
      store.clear();
    }
    disk.close();
  }
}
