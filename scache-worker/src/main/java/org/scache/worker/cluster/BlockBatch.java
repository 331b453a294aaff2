package org.scache.worker.cluster;

import io.netty.buffer.ByteBuf;
import java.util.List;
import java.util.Map;
import org.scache.common.BlockId;
import org.scache.common.shuffle.BlockSize;

/**
 * Blocks and their bytes, concatenated in the order of {@code sizes}. Whoever receives a batch owns
 * its payload and must release it.
 */
public record BlockBatch(List<BlockSize> sizes, ByteBuf payload) {
  public BlockBatch {
    sizes = List.copyOf(sizes);
  }

  /** Whether the payload holds exactly the bytes the sizes add up to. */
  boolean sizesAddUp() {
    long total = 0;
    for (BlockSize b : sizes) {
      total += b.size();
    }
    return total == payload.readableBytes();
  }

  /** Puts each block's bytes into {@code into} as a retained slice of the payload, and releases the payload. */
  public void splitInto(Map<BlockId, ByteBuf> into) {
    int offset = payload.readerIndex();
    for (BlockSize b : sizes) {
      into.put(b.blockId(), payload.retainedSlice(offset, (int) b.size()));
      offset += (int) b.size();
    }
    payload.release();
  }
}
