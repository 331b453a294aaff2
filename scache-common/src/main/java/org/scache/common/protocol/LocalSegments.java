package org.scache.common.protocol;

import java.util.List;

/** The worker's segment files, for {@link OpenLocal}. */
public record LocalSegments(List<LocalSegment> segments) implements Message {
  public LocalSegments {
    segments = List.copyOf(segments);
  }

  @Override
  public MessageType type() {
    return MessageType.LOCAL_SEGMENTS;
  }

  @Override
  public void write(WireWriter out) {
    out.writeList(segments, (w, segment) -> segment.write(w));
  }

  /** Reads what {@link #write} writes. */
  static LocalSegments read(WireReader in) throws MalformedMessageException {
    return new LocalSegments(in.readList("segments", 4 + 2 + 8, LocalSegment::read));
  }
}
