package org.scache.common.protocol;

import org.scache.common.BlockId;

/** Reads one block from wherever it is stored. */
public record GetBlock(BlockId blockId) implements Message, Message.ForApplication {
  @Override
  public String appId() {
    return blockId.appId();
  }

  @Override
  public MessageType type() {
    return MessageType.GET_BLOCK;
  }

  @Override
  public void write(WireWriter out) {
    BlockIdForm.write(out, blockId);
  }

  /** Reads what {@link #write} writes. */
  static GetBlock read(WireReader in) throws MalformedMessageException {
    return new GetBlock(BlockIdForm.read(in));
  }
}
