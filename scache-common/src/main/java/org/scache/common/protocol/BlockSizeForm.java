package org.scache.common.protocol;

import org.scache.common.shuffle.BlockSize;

/** A {@link BlockSize} on the wire: the block id, then its size in bytes (i64). */
final class BlockSizeForm {
  static final int MIN_BYTES = BlockIdForm.MIN_BYTES + 8;

  private BlockSizeForm() {}

  static WireWriter write(WireWriter out, BlockSize block) {
    return BlockIdForm.write(out, block.blockId()).writeLong(block.size());
  }

  static BlockSize read(WireReader in) throws MalformedMessageException {
    return new BlockSize(BlockIdForm.read(in), in.readNonNegativeLong("block size"));
  }
}
