package org.scache.common.protocol;

/** Asks the master how many more blocks the live workers hold for one owner: answered with {@link BlockRoom}. */
public record AskBlockRoom() implements Message {
  @Override
  public MessageType type() {
    return MessageType.ASK_BLOCK_ROOM;
  }

  @Override
  public void write(WireWriter out) {
    // no fields
  }

  /** Reads what {@link #write} writes. */
  static AskBlockRoom read(WireReader in) throws MalformedMessageException {
    return new AskBlockRoom();
  }
}
