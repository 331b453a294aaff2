package org.scache.common.protocol;

import java.util.List;

/** Lets go of pinned blocks. */
public record Unpin(List<Long> pinIds) implements Message {
  public Unpin {
    pinIds = List.copyOf(pinIds);
  }

  @Override
  public MessageType type() {
    return MessageType.UNPIN;
  }

  @Override
  public void write(WireWriter out) {
    out.writeList(pinIds, WireWriter::writeLong);
  }

  /** Reads what {@link #write} writes. */
  static Unpin read(WireReader in) throws MalformedMessageException {
    return new Unpin(in.readList("pin ids", 8, r -> r.readLong("pin id")));
  }
}
