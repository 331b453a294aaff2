package org.scache.common.protocol;

/** Where a pinned block's bytes are: {@code length} bytes at {@code offset} of {@code segment}. */
public record PinnedBlock(long pinId, int segment, long offset, long length) implements Message {
  @Override
  public MessageType type() {
    return MessageType.PINNED_BLOCK;
  }

  @Override
  public void write(WireWriter out) {
    out.writeLong(pinId).writeInt(segment).writeLong(offset).writeLong(length);
  }

  /** Reads what {@link #write} writes. */
  static PinnedBlock read(WireReader in) throws MalformedMessageException {
    return new PinnedBlock(in.readLong("pin id"), in.readNonNegativeInt("segment"), in.readNonNegativeLong("offset"),
        in.readNonNegativeLong("length"));
  }
}
