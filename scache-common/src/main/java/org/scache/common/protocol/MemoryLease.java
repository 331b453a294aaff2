package org.scache.common.protocol;

/** A range reserved for the connection: {@code length} bytes at {@code offset} of {@code segment}. */
public record MemoryLease(long leaseId, int segment, long offset, long length) implements Message {
  @Override
  public MessageType type() {
    return MessageType.MEMORY_LEASE;
  }

  @Override
  public void write(WireWriter out) {
    out.writeLong(leaseId).writeInt(segment).writeLong(offset).writeLong(length);
  }

  /** Reads what {@link #write} writes. */
  static MemoryLease read(WireReader in) throws MalformedMessageException {
    return new MemoryLease(in.readLong("lease id"), in.readNonNegativeInt("segment"), in.readNonNegativeLong("offset"),
        in.readNonNegativeLong("length"));
  }
}
