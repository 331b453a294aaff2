package org.scache.worker.store;

import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.buffer.UnpooledDirectByteBuf;
import java.nio.ByteBuffer;

/**
 * One reader's buffer over the bytes of a block the store keeps as a place in the reserve ({@link MapBlocks}):
 * made when the block is read, it holds the block's memory until released, as a retained duplicate of a
 * {@link BlockBuffer} would.
 */
final class ReserveView extends UnpooledDirectByteBuf {
  private final ReserveReaders readers;
  private final int slot;
  private final MemoryPool pool;

  ReserveView(ByteBuffer bytes, ReserveReaders readers, int slot, MemoryPool pool) {
    super(UnpooledByteBufAllocator.DEFAULT, bytes, bytes.capacity());
    this.readers = readers;
    this.slot = slot;
    this.pool = pool;
    writerIndex(bytes.capacity());
  }

  @Override
  protected void deallocate() {
    readers.went(slot, pool);
  }
}
