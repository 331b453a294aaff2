package org.scache.common.protocol;

/** The request succeeded and has nothing more to say. */
public record Ack() implements Message {
  @Override
  public MessageType type() {
    return MessageType.ACK;
  }

  @Override
  public void write(WireWriter out) {
    // no fields
  }

  /** Reads what {@link #write} writes. */
  static Ack read(WireReader in) throws MalformedMessageException {
    return new Ack();
  }
}
