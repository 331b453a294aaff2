package org.scache.tez;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The layout of one SCache block written by a Tez output: a fixed header, then one partition of the
 * producer's output exactly as Tez's ShuffleHandler would serve it (an IFile segment, compressed and
 * checksummed as the edge says).
 *
 * <pre>
 * int  magic 'SCTB', byte version 1,
 * long raw   uncompressed length of the IFile segment
 * long part  length of the segment as stored
 * byte[part] the segment
 * </pre>
 */
record TezBlock(long rawLength, long partLength) {
  static final int MAGIC = 0x53435442;
  static final byte VERSION = 1;
  static final int HEADER_BYTES = 4 + 1 + 8 + 8;

  TezBlock {
    if (rawLength < 0 || partLength < 0) {
      throw new IllegalArgumentException("bad block header: raw=" + rawLength + " part=" + partLength);
    }
  }

  void writeHeader(ByteBuffer out) {
    out.putInt(MAGIC).put(VERSION).putLong(rawLength).putLong(partLength);
  }

  /** Reads the header at the buffer's position and leaves the position at the segment. */
  static TezBlock readHeader(ByteBuffer in, String what) throws IOException {
    if (in.remaining() < HEADER_BYTES) {
      throw new IOException(what + " has " + in.remaining() + " bytes, fewer than a block header");
    }
    int magic = in.getInt();
    byte version = in.get();
    if (magic != MAGIC || version != VERSION) {
      throw new IOException(what + " is not a Tez block of SCache (magic " + Integer.toHexString(magic)
          + ", version " + version + ")");
    }
    TezBlock b;
    try {
      b = new TezBlock(in.getLong(), in.getLong());
    } catch (IllegalArgumentException e) {
      throw new IOException(what + ": " + e.getMessage(), e);
    }
    if (b.partLength != in.remaining()) {
      throw new IOException(what + " declares a segment of " + b.partLength + " bytes but carries " + in.remaining());
    }
    return b;
  }
}
