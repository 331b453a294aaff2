package org.scache.common.protocol;

/** Ends a lease: what was not committed goes back to the worker's reserve. */
public record ReleaseLease(long leaseId) implements Message {
  @Override
  public MessageType type() {
    return MessageType.RELEASE_LEASE;
  }

  @Override
  public void write(WireWriter out) {
    out.writeLong(leaseId);
  }

  /** Reads what {@link #write} writes. */
  static ReleaseLease read(WireReader in) throws MalformedMessageException {
    return new ReleaseLease(in.readLong("lease id"));
  }
}
