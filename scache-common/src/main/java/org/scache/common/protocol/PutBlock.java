package org.scache.common.protocol;

import org.scache.common.BlockId;

/** Stores the frame's payload as this block. */
public record PutBlock(BlockId blockId) implements Message, Message.ForApplication {
  @Override
  public String appId() {
    return blockId.appId();
  }

  @Override
  public MessageType type() {
    return MessageType.PUT_BLOCK;
  }

  @Override
  public void write(WireWriter out) {
    BlockIdForm.write(out, blockId);
  }

  /** Reads what {@link #write} writes. */
  static PutBlock read(WireReader in) throws MalformedMessageException {
    return new PutBlock(BlockIdForm.read(in));
  }
}
