package org.scache.client;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * Where the blocks of a reduce input read in parts are copied out of the worker's memory: direct
 * buffers, allocated up to {@code capacity} bytes and reused once the reader releases its part
 * ({@link ReduceInput#release}), so a reduce's input is not a large heap array the collector copies
 * and promotes while the reduce decodes it. A buffer's capacity is the block's size rounded up to a
 * power of two from {@link #SMALLEST}; a block larger than {@link #LARGEST}, or one past the
 * capacity, is copied to the heap as before. Thread-safe.
 */
final class BlockBuffers {
  static final int SMALLEST = 64 * 1024;
  static final int LARGEST = 8 << 20;

  private final long capacity;
  private final Map<Integer, ArrayDeque<ByteBuffer>> free = new HashMap<>();
  private long allocated;

  BlockBuffers(long capacity) {
    this.capacity = Math.max(0, capacity);
  }

  /** A buffer of {@code size} bytes (position 0, limit {@code size}): a free direct one, a new one, or a heap one. */
  ByteBuffer take(int size) {
    if (size <= LARGEST) {
      int rounded = size <= SMALLEST ? SMALLEST : Integer.highestOneBit(size - 1) << 1;
      synchronized (this) {
        ArrayDeque<ByteBuffer> q = free.get(rounded);
        ByteBuffer b = q == null ? null : q.poll();
        if (b == null && allocated + rounded <= capacity) {
          allocated += rounded;
          b = ByteBuffer.allocateDirect(rounded);
        }
        if (b != null) {
          return b.clear().limit(size);
        }
      }
    }
    return ByteBuffer.allocate(size);
  }

  /** Takes back a buffer nothing reads any more; a heap one is left to the collector. */
  void giveBack(ByteBuffer b) {
    if (!b.isDirect()) {
      return;
    }
    synchronized (this) {
      free.computeIfAbsent(b.capacity(), k -> new ArrayDeque<>()).push(b);
    }
  }

  /** Bytes of direct buffers allocated, in use or free: at most the capacity. */
  synchronized long allocatedBytes() {
    return allocated;
  }

  /** Bytes of direct buffers free for the next take. */
  synchronized long freeBytes() {
    return free.values().stream().flatMap(ArrayDeque::stream).mapToLong(ByteBuffer::capacity).sum();
  }
}
