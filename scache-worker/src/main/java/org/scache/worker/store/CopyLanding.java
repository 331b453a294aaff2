package org.scache.worker.store;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import org.scache.common.ScacheException;
import org.scache.common.protocol.Status;
import org.scache.common.shuffle.BlockSize;

/**
 * Lands prefetched copies of blocks held by other workers in the {@link BlockStore}: the blocks of
 * one answer share one new region of the reserve, each in its own aligned part of it. Copies take
 * free memory only: they never make other blocks spill.
 */
public final class CopyLanding {
  private final BlockStore store;
  private final MemoryPool pool;

  /** @param pool where the copies' memory is taken */
  CopyLanding(BlockStore store, MemoryPool pool) {
    this.store = store;
    this.pool = pool;
  }

  /**
   * Stores copies of the blocks of {@code layout}, in list order; {@code data} holds their bytes
   * concatenated and stays the caller's. Blocks already held, and blocks the quota has no room for
   * (they are read from their holder instead), are skipped. Returns the number of copies stored.
   *
   * @throws ScacheException STORE_FULL or BLOCK_TOO_LARGE when the region cannot be had
   */
  public int land(List<BlockSize> layout, ByteBuf data) {
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
      MemoryPool.Region region = pool.allocate(total).orElseThrow(() -> new ScacheException(Status.STORE_FULL,
          "no room for " + layout.get(0).blockId() + " (" + data.readableBytes() + " bytes): " + pool.usedBytes()
              + " of " + pool.reservedBytes() + " reserved bytes in use"));
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
    for (int i = 0; i < layout.size(); i++) {
      if (store.addCopy(layout.get(i).blockId(), parts.get(i))) {
        stored++;
      }
    }
    return stored;
  }
}
