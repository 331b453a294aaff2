package org.scache.common.protocol;

import org.scache.common.BlockId;

/** Holds a block stored on this worker in place, so that the client can copy it out of the mapping. */
public record PinBlock(BlockId blockId) implements Message, Message.ForApplication {
  @Override
  public String appId() {
    return blockId.appId();
  }

  @Override
  public MessageType type() {
    return MessageType.PIN_BLOCK;
  }

  @Override
  public void write(WireWriter out) {
    BlockIdForm.write(out, blockId);
  }

  /** Reads what {@link #write} writes. */
  static PinBlock read(WireReader in) throws MalformedMessageException {
    return new PinBlock(BlockIdForm.read(in));
  }
}
