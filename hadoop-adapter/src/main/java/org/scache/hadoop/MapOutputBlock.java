package org.scache.hadoop;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The layout of one SCache block written by {@link ScacheMapOutputCollector}: a fixed header, then
 * one sorted run of one reduce partition in IFile format, exactly the bytes Hadoop's ShuffleHandler
 * would serve for it (compressed and checksummed as the job says).
 *
 * <p>A map whose output fits its sort buffer writes one run per partition, as block
 * (shuffle 0, map, attempt, reduce). A map that spilled writes spill {@code s} (counting from 0)
 * as block (shuffle {@code s + 1}, map, attempt, reduce) while it runs, and its last run as the
 * shuffle-0 block; the shuffle-0 block's {@code runs} says how many runs the map has in all, so a
 * reduce reads shuffle 0 for every map and the spill shuffles only for maps that spilled.
 *
 * <pre>
 * int  magic    'SCMR'
 * byte version  1
 * int  runs     runs of this map attempt for this partition (1 + spills before the last run)
 * long raw      uncompressed length of the IFile run (what the reduce holds in memory)
 * long part     length of the IFile run as stored (compressed, with checksum)
 * byte[part]    the IFile run
 * </pre>
 */
public record MapOutputBlock(int runs, long rawLength, long partLength) {
  static final int MAGIC = 0x53434D52;
  static final byte VERSION = 1;
  public static final int HEADER_BYTES = 4 + 1 + 4 + 8 + 8;

  public MapOutputBlock {
    if (runs < 1 || rawLength < 0 || partLength < 0) {
      throw new IllegalArgumentException("bad block header: runs=" + runs + " raw=" + rawLength + " part="
          + partLength);
    }
  }

  /** The shuffle that holds spill {@code spill} (from 0) of a map that spilled before its last run. */
  public static int spillShuffle(int spill) {
    return TaskScacheClient.SHUFFLE_ID + 1 + spill;
  }

  public void writeHeader(ByteBuffer out) {
    out.putInt(MAGIC).put(VERSION).putInt(runs).putLong(rawLength).putLong(partLength);
  }

  /** Reads the header at the buffer's position and leaves the position at the IFile run. */
  public static MapOutputBlock readHeader(ByteBuffer in, String what) throws IOException {
    if (in.remaining() < HEADER_BYTES) {
      throw new IOException(what + " has " + in.remaining() + " bytes, fewer than a block header");
    }
    int magic = in.getInt();
    byte version = in.get();
    if (magic != MAGIC || version != VERSION) {
      throw new IOException(what + " is not a MapReduce block of SCache (magic " + Integer.toHexString(magic)
          + ", version " + version + ")");
    }
    MapOutputBlock b;
    try {
      b = new MapOutputBlock(in.getInt(), in.getLong(), in.getLong());
    } catch (IllegalArgumentException e) {
      throw new IOException(what + ": " + e.getMessage(), e);
    }
    if (b.partLength != in.remaining()) {
      throw new IOException(what + " declares a run of " + b.partLength + " bytes but carries " + in.remaining());
    }
    return b;
  }
}
