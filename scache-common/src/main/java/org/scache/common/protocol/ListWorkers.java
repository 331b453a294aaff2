package org.scache.common.protocol;

/** Asks the master for the workers alive. */
public record ListWorkers() implements Message {
  @Override
  public MessageType type() {
    return MessageType.LIST_WORKERS;
  }

  @Override
  public void write(WireWriter out) {
    // no fields
  }

  /** Reads what {@link #write} writes. */
  static ListWorkers read(WireReader in) throws MalformedMessageException {
    return new ListWorkers();
  }
}
