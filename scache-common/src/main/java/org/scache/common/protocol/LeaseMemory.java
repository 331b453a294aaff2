package org.scache.common.protocol;

/** Reserves a contiguous range of {@code bytes} for this connection to copy blocks into. */
public record LeaseMemory(String appId, long bytes) implements Message, Message.ForApplication {
  @Override
  public MessageType type() {
    return MessageType.LEASE_MEMORY;
  }

  @Override
  public void write(WireWriter out) {
    out.writeString(appId).writeLong(bytes);
  }

  /** Reads what {@link #write} writes. */
  static LeaseMemory read(WireReader in) throws MalformedMessageException {
    return new LeaseMemory(in.readNonEmptyString("application id"), in.readNonNegativeLong("lease bytes"));
  }
}
