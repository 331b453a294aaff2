package org.scache.worker.store;

import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.buffer.UnpooledDirectByteBuf;
import org.scache.common.Checks;

/**
 * A Netty buffer over one pool region, as a put, a prefetched copy or a block loaded back from disk fills it. The
 * store holds one reference; every reader that is sent the block holds another (through a retained duplicate), so the
 * region goes back to the pool only when the block is removed and the last write of it to a socket has finished.
 * A block the store takes whole keeps its region without this buffer ({@link #handOver}, {@link StoredBlock}).
 */
public final class BlockBuffer extends UnpooledDirectByteBuf {
  private final MemoryPool pool;
  private final MemoryPool.Region region;
  private boolean handedOver;

  public BlockBuffer(MemoryPool pool, MemoryPool.Region region) {
    super(UnpooledByteBufAllocator.DEFAULT, region.buffer(), region.buffer().capacity());
    this.pool = pool;
    this.region = region;
    clear();
  }

  /** Where the bytes lie in the pool. */
  MemoryPool.Region region() {
    return region;
  }

  MemoryPool pool() {
    return pool;
  }

  /**
   * Whether the region can be handed over: this is its only reference, filled, read from its start, and its
   * allocation is what {@link MemoryPool#align} gives its bytes.
   */
  boolean canHandOver() {
    return refCnt() == 1 && readerIndex() == 0 && writerIndex() == capacity() && capacity() > 0
        && region.allocated() == MemoryPool.align(capacity());
  }

  /** Releases this buffer without giving its region back: the caller now holds the region and frees it. */
  MemoryPool.Region handOver() {
    Checks.requireState(canHandOver(), "the region of this buffer cannot be handed over");
    handedOver = true;
    release();
    return region;
  }

  @Override
  protected void deallocate() {
    if (!handedOver) {
      pool.free(region);
    }
  }
}
