package org.scache.worker.store;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.scache.common.BlockId;
import org.scache.common.DaemonThreads;
import org.scache.common.ScacheException;
import org.scache.common.protocol.Status;
import org.scache.worker.counters.WorkerCounters;
import org.scache.worker.spill.SpillReadBudget;
import org.scache.worker.spill.SpillReadBuffer;
import org.scache.worker.spill.SpillStore;

/**
 * Reads held blocks for sending, wherever they are: a block in memory is answered at once; a spilled
 * block is read from disk on a reading thread into a buffer outside the reserve, bounded by the
 * {@link SpillReadBudget}, and checked against its checksum (a mismatch makes the block lost, never
 * served).
 */
public final class SpilledReads implements AutoCloseable {
  private final BlockStore store;
  private final Optional<SpillStore> disk;
  private final SpillReadBudget readBudget;
  private final WorkerCounters counters;
  private final ExecutorService diskReads = Executors.newFixedThreadPool(2, DaemonThreads.named("scache-spill-read"));

  SpilledReads(BlockStore store, Optional<SpillStore> disk, SpillReadBudget readBudget, WorkerCounters counters) {
    this.store = store;
    this.disk = disk;
    this.readBudget = readBudget;
    this.counters = counters;
  }

  /**
   * Reads a block wherever it is held here. Empty when the block is not held here.
   *
   * @return fails with BLOCK_NOT_FOUND when the spilled bytes do not match their checksum (the block
   *     is then lost and reported) or the block was removed while it was read
   */
  public CompletableFuture<Optional<ByteBuf>> read(BlockId id) {
    return readAll(List.of(id)).thenApply(list -> list.get(0));
  }

  /**
   * Reads several blocks for one answer, as {@link #read} does, in list order. The spilled ones take
   * their total size from the read budget at once (an answer larger than the whole budget takes all
   * of it and is read alone), so that the reads of one answer never wait for each other. All or
   * nothing: when one read fails, every buffer is released and the future fails.
   */
  public CompletableFuture<List<Optional<ByteBuf>>> readAll(List<BlockId> ids) {
    List<BlockStore.Found> found = store.find(ids);
    List<Optional<ByteBuf>> out = new ArrayList<>(ids.size());
    List<Integer> spilledAt = new ArrayList<>();
    long total = 0;
    for (BlockStore.Found f : found) {
      out.add(f.inMemory());
      if (f.spilled().isPresent()) {
        spilledAt.add(out.size() - 1);
        total += f.spilled().get().at().length();
      }
    }
    if (spilledAt.isEmpty()) {
      return CompletableFuture.completedFuture(out);
    }
    return readBudget.acquire(total).thenApplyAsync(taken -> {
      long left = taken;
      try {
        for (int i : spilledAt) {
          BlockStore.Spilled s = found.get(i).spilled().get();
          long share = Math.min(left, s.at().length());
          left -= share;
          out.set(i, Optional.of(readSpilled(s.block(), s.at(), share)));
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
      disk.orElseThrow().read(at, buf);
      counters.spillReadBlocks.increment();
      counters.spillReadBytes.add(at.length());
      return buf;
    } catch (SpillStore.ChecksumMismatchException e) {
      buf.release();
      store.lose(b, e.getMessage());
      throw new ScacheException(Status.BLOCK_NOT_FOUND, b.id() + " is lost: its spilled bytes failed their "
          + "checksum; re-run map " + b.id().mapId());
    } catch (IOException e) {
      buf.release();
      Optional<ByteBuf> loaded = store.inMemoryNow(b);
      if (loaded.isPresent()) {
        return loaded.get();
      }
      Optional<SpillStore.Location> movedTo = store.movedFrom(b, at);
      if (movedTo.isPresent()) {
        // the spill file was compacted while this read ran: read the block where it lies now
        return readSpilled(b, movedTo.get(), 0);
      }
      throw new ScacheException(Status.BLOCK_NOT_FOUND, b.id() + " is no longer stored here (" + e.getMessage() + ")");
    }
  }

  @Override
  public void close() {
    diskReads.shutdownNow();
  }
}
