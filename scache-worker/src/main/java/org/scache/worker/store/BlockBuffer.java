package org.scache.worker.store;

import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.buffer.UnpooledDirectByteBuf;

/**
 * A Netty buffer over one pool region. The store holds one reference; every reader that is sent
 * the block holds another (through a retained duplicate), so the region goes back to the pool only
 * when the block is removed and the last write of it to a socket has finished.
 */
public final class BlockBuffer extends UnpooledDirectByteBuf {
  private final MemoryPool pool;
  private final MemoryPool.Region region;

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

  @Override
  protected void deallocate() {
    pool.free(region);
  }
}
