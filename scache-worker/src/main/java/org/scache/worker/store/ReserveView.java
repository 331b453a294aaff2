package org.scache.worker.store;

import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.buffer.UnpooledDirectByteBuf;
import java.nio.ByteBuffer;

/**
 * One reader's buffer over the bytes of a block the store keeps as a place in the reserve ({@link StoredBlock}):
 * made when the block is read, it holds the block's memory until released, as a retained duplicate of a
 * {@link BlockBuffer} would.
 */
final class ReserveView extends UnpooledDirectByteBuf {
  private final StoredBlock block;
  private final MemoryPool pool;

  ReserveView(ByteBuffer bytes, StoredBlock block, MemoryPool pool) {
    super(UnpooledByteBufAllocator.DEFAULT, bytes, bytes.capacity());
    this.block = block;
    this.pool = pool;
    writerIndex(bytes.capacity());
  }

  @Override
  protected void deallocate() {
    block.readerGone(pool);
  }
}
