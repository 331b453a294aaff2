package org.scache.spark;

import java.util.ArrayDeque;
import java.util.List;

/**
 * The chunks map tasks collect their partitions in, kept by the executor once their block is stored
 * so the next partitions reuse them. A map task that writes straight to its partitions holds its
 * whole output in chunks until it ends; allocated afresh, those live through several young
 * collections and are copied, then promoted, each time. Kept here they are promoted once. Chunks
 * are powers of two from {@link #SMALLEST} to {@link #LARGEST} bytes; at most {@code capacity} bytes
 * of them are kept, the rest left to the collector. Thread-safe: the tasks of an executor share one.
 */
final class ChunkPool {
  static final int SMALLEST = 32 * 1024;
  static final int LARGEST = 256 * 1024;
  private static final int SIZES = Integer.numberOfTrailingZeros(LARGEST / SMALLEST) + 1;

  private final long capacity;
  private final ArrayDeque<byte[]>[] free;
  private long kept;

  @SuppressWarnings("unchecked")
  ChunkPool(long capacity) {
    this.capacity = Math.max(0, capacity);
    this.free = new ArrayDeque[SIZES];
    for (int i = 0; i < SIZES; i++) {
      free[i] = new ArrayDeque<>();
    }
  }

  /** A chunk of {@code size} bytes, a power of two from {@link #SMALLEST} to {@link #LARGEST}; its bytes are not cleared. */
  byte[] take(int size) {
    int slot = slot(size);
    synchronized (this) {
      byte[] c = free[slot].poll();
      if (c != null) {
        kept -= c.length;
        return c;
      }
    }
    return new byte[size];
  }

  /** Takes back chunks nothing reads any more; those past the capacity are dropped. */
  void giveBack(List<byte[]> chunks) {
    synchronized (this) {
      for (byte[] c : chunks) {
        if (kept + c.length > capacity) {
          return;
        }
        free[slot(c.length)].push(c);
        kept += c.length;
      }
    }
  }

  /** Bytes of chunks kept for reuse. */
  synchronized long keptBytes() {
    return kept;
  }

  private static int slot(int size) {
    if (size < SMALLEST || size > LARGEST || Integer.bitCount(size) != 1) {
      throw new IllegalArgumentException("a chunk is a power of two from " + SMALLEST + " to " + LARGEST
          + " bytes, not " + size);
    }
    return Integer.numberOfTrailingZeros(size / SMALLEST);
  }
}
