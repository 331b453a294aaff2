package org.scache.worker;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
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

  /** Drops the store's reference. */
  void release() {
    data.release();
  }
}
