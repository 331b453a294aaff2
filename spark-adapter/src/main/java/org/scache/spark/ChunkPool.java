package org.scache.spark;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.List;

/**
 * The chunks map tasks collect their partitions in, outside the heap and reused. A map task that
 * writes straight to its partitions holds its whole output in chunks until it ends; on the heap,
 * those live through several young collections and are copied, then promoted, each time. Here
 * they are direct buffers an executor allocates once, up to {@code capacity} bytes, and takes back
 * when their block is stored; past the capacity a chunk is an ordinary heap buffer, left to the
 * collector when given back. Chunks are powers of two from {@link #SMALLEST} to {@link #LARGEST}
 * bytes. Thread-safe: the tasks of an executor share one.
 */
final class ChunkPool {
  static final int SMALLEST = 32 * 1024;
  static final int LARGEST = 256 * 1024;
  private static final int SIZES = Integer.numberOfTrailingZeros(LARGEST / SMALLEST) + 1;

  private final long capacity;
  private final ArrayDeque<ByteBuffer>[] free;
  /** Bytes of direct chunks allocated, in use or free; guarded by this. */
  private long allocated;
  /** Bytes of direct chunks free; guarded by this. */
  private long kept;

  @SuppressWarnings("unchecked")
  ChunkPool(long capacity) {
    this.capacity = Math.max(0, capacity);
    this.free = new ArrayDeque[SIZES];
    for (int i = 0; i < SIZES; i++) {
      free[i] = new ArrayDeque<>();
    }
  }

  /**
   * An empty chunk of {@code size} bytes, a power of two from {@link #SMALLEST} to {@link #LARGEST}:
   * a free direct one, a new direct one while the capacity allows, else a heap one.
   */
  ByteBuffer take(int size) {
    int slot = slot(size);
    synchronized (this) {
      ByteBuffer c = free[slot].poll();
      if (c != null) {
        kept -= size;
        return c;
      }
      if (allocated + size <= capacity) {
        allocated += size;
        return ByteBuffer.allocateDirect(size);
      }
    }
    return ByteBuffer.allocate(size);
  }

  /** Takes back chunks nothing reads any more: direct ones are kept for the next take, heap ones dropped. */
  void giveBack(List<ByteBuffer> chunks) {
    synchronized (this) {
      for (ByteBuffer c : chunks) {
        if (c.isDirect()) {
          c.clear();
          free[slot(c.capacity())].push(c);
          kept += c.capacity();
        }
      }
    }
  }

  /** Bytes of direct chunks free for the next take. */
  synchronized long keptBytes() {
    return kept;
  }

  /** Bytes of direct chunks allocated, in use or free: at most the capacity. */
  synchronized long allocatedBytes() {
    return allocated;
  }

  private static int slot(int size) {
    if (size < SMALLEST || size > LARGEST || Integer.bitCount(size) != 1) {
      throw new IllegalArgumentException("a chunk is a power of two from " + SMALLEST + " to " + LARGEST
          + " bytes, not " + size);
    }
    return Integer.numberOfTrailingZeros(size / SMALLEST);
  }
}
