package org.scache.worker.store;

import io.netty.buffer.Unpooled;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import org.scache.common.BlockId;
import org.scache.common.ScacheException;
import org.scache.common.protocol.Status;
import org.scache.common.shuffle.BlockSize;
import org.scache.worker.counters.WorkerCounters;

/**
 * The one way blocks are put into a worker, over a socket or through shared memory: a put takes its
 * memory when it starts ({@link #begin}), its bytes are copied in, and {@link #commit} makes it
 * visible, counts it and tells the master its size.
 *
 * <p>With a {@link Spiller}, a put that does not fit makes room (see {@link Spiller#makeRoom}); when
 * neither memory nor disk can take it, it is refused with {@link Status#RETRY_LATER}. Without one, a
 * put that does not fit is refused with {@link Status#STORE_FULL}.
 */
public final class BlockPuts {
  private final BlockStore store;
  private final MemoryPool pool;
  private final Optional<Spiller> spiller;
  private final WorkerCounters counters;
  private final Consumer<BlockSize> stored;

  /**
   * @param pool where the puts' memory is taken
   * @param stored told the size of every block stored (for the master)
   */
  BlockPuts(BlockStore store, MemoryPool pool, Optional<Spiller> spiller, WorkerCounters counters,
      Consumer<BlockSize> stored) {
    this.store = store;
    this.pool = pool;
    this.spiller = spiller;
    this.counters = counters;
    this.stored = stored;
  }

  /** Starts receiving a block of {@code length} bytes, taking its memory now, spilling others if needed. */
  public PendingPut begin(BlockId id, long length) {
    Runnable quota = store.reserveQuota(id);
    try {
      return fromFreeMemory(id, length).orElseGet(() -> spiller.orElseThrow(() -> storeFull(id, length))
          .makeRoom(id, length)).holdingQuota(quota);
    } catch (RuntimeException e) {
      quota.run();
      throw e;
    }
  }

  /**
   * {@link #begin} without blocking the caller: when the reserve has no room, the room is made on the
   * spiller's background thread. From now until the put is committed or aborted its block counts
   * against the block quota.
   */
  public CompletableFuture<PendingPut> beginAsync(BlockId id, long length) {
    Runnable quota;
    try {
      quota = store.reserveQuota(id);
    } catch (ScacheException e) {
      return CompletableFuture.failedFuture(e);
    }
    try {
      Optional<PendingPut> now = fromFreeMemory(id, length);
      if (now.isPresent()) {
        return CompletableFuture.completedFuture(now.get().holdingQuota(quota));
      }
      Spiller s = spiller.orElseThrow(() -> storeFull(id, length));
      CompletableFuture<PendingPut> made = CompletableFuture.supplyAsync(() -> s.makeRoom(id, length),
          s.background());
      made.whenComplete((put, e) -> {
        if (e != null) {
          quota.run();
        }
      });
      return made.thenApply(put -> put.holdingQuota(quota));
    } catch (ScacheException e) {
      quota.run();
      return CompletableFuture.failedFuture(e);
    } catch (RejectedExecutionException e) {
      quota.run();
      return CompletableFuture.failedFuture(new ScacheException(Status.SHUTTING_DOWN, "the worker is stopping"));
    }
  }

  /** The put's memory when the reserve has room for it now, without spilling anything. */
  private Optional<PendingPut> fromFreeMemory(BlockId id, long length) {
    if (length == 0) {
      return Optional.of(new PendingPut(id, Unpooled.EMPTY_BUFFER));
    }
    if (!pool.canEverHold(length)) {
      throw new ScacheException(Status.BLOCK_TOO_LARGE, id + " has " + length
          + " bytes, more than one memory segment of this worker holds");
    }
    return pool.allocate(length).map(region -> new PendingPut(id, new BlockBuffer(pool, region)));
  }

  private ScacheException storeFull(BlockId id, long length) {
    return new ScacheException(Status.STORE_FULL, "no room for " + id + " (" + length + " bytes): "
        + pool.usedBytes() + " of " + pool.reservedBytes() + " reserved bytes in use");
  }

  /**
   * Makes a completely received block visible, counts it and reports it to the master. Returns
   * false when the same block was already stored (the new copy is dropped: blocks are immutable).
   */
  public boolean commit(PendingPut put) {
    if (!put.isComplete()) {
      put.abort();
      throw new ScacheException(Status.MALFORMED_MESSAGE, "block " + put.id() + " is incomplete");
    }
    long size = put.expectedBytes();
    boolean added;
    if (put.toDisk()) {
      added = spiller.orElseThrow().commitToDisk(put.id(), put.take());
    } else {
      added = store.addInMemory(put.id(), put.take());
    }
    if (added) {
      counters.putBlocks.increment();
      counters.putBytes.add(size);
      stored.accept(new BlockSize(put.id(), size));
    } else {
      counters.duplicatePuts.increment();
    }
    return added;
  }
}
