package org.scache.worker;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.Optional;
import org.scache.common.BlockId;

/** A block held in the store: its id and its bytes (an empty block holds no memory). */
final class StoredBlock {
  private final BlockId id;
  private final ByteBuf data;

  StoredBlock(BlockId id, ByteBuf data) {
    this.id = id;
    this.data = data;
  }

  BlockId id() {
    return id;
  }

  long size() {
    return data.readableBytes();
  }

  /** The block's bytes for one reader, who must release them; the memory stays until then. */
  ByteBuf retainedData() {
    return data.isReadable() ? data.retainedDuplicate() : Unpooled.EMPTY_BUFFER;
  }

  /**
   * The block's bytes for one local reader who copies them from the pool's shared memory: the
   * retained reference keeps the region from being reused until released. Empty when the block
   * holds no pool memory (an empty block).
   */
  Optional<Pinned> pin() {
    if (data instanceof BlockBuffer b) {
      return Optional.of(new Pinned(data.retainedDuplicate(), b.region(), data.readableBytes()));
    }
    return Optional.empty();
  }

  /** A retained reference to a block's bytes and where they lie in the pool. */
  record Pinned(ByteBuf reference, MemoryPool.Region region, long length) {}

  /** Drops the store's reference. */
  void release() {
    data.release();
  }
}
