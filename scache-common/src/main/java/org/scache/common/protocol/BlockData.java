package org.scache.common.protocol;

import org.scache.common.BlockId;

/** One block; its bytes are the frame's payload. */
public record BlockData(BlockId blockId) implements Message {
  @Override
  public MessageType type() {
    return MessageType.BLOCK_DATA;
  }

  @Override
  public void write(WireWriter out) {
    BlockIdForm.write(out, blockId);
  }

  /** Reads what {@link #write} writes. */
  static BlockData read(WireReader in) throws MalformedMessageException {
    return new BlockData(BlockIdForm.read(in));
  }
}
