package org.scache.common.protocol;

/** One segment file of a worker's reserve: its index in offsets the worker sends, its path, its size. */
public record LocalSegment(int index, String path, long size) {
  /** Writes this segment as part of a message. */
  void write(WireWriter out) {
    out.writeInt(index).writeString(path).writeLong(size);
  }

  /** Reads what {@link #write} writes. */
  static LocalSegment read(WireReader in) throws MalformedMessageException {
    return new LocalSegment(in.readNonNegativeInt("segment index"), in.readNonEmptyString("segment path"),
        in.readNonNegativeLong("segment size"));
  }
}
