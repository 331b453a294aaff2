package org.scache.client;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Collection;

/**
 * Direct buffers allocated once, up to {@code capacity} bytes, and reused once given back, for
 * bytes that live long enough that the collector would copy and promote them on the heap: a reduce
 * input read in parts (until the reader releases its part, {@link ReduceInput#release}) and the
 * chunks a Spark map task collects its partitions in (until their block is stored). A buffer's
 * capacity is the size asked for rounded up to a power of two from {@code smallest}; a size larger
 * than {@code largest}, or one past the capacity, gets an ordinary heap buffer, left to the
 * collector when given back. Thread-safe.
 */
public final class BlockBuffers {
  private final long capacity;
  private final int smallest;
  private final int largest;
  /** Free direct buffers by size class (capacity {@code smallest << i}); guarded by this. */
  private final ArrayDeque<ByteBuffer>[] free;
  /** Bytes of direct buffers allocated, in use or free; guarded by this. */
  private long allocated;
  /** Bytes of direct buffers free; guarded by this. */
  private long freeBytes;

  /**
   * @param capacity bytes of direct buffers at most (0: every buffer on the heap)
   * @param smallest the smallest buffer, a power of two
   * @param largest the largest direct buffer, a power of two not below {@code smallest}
   */
  @SuppressWarnings("unchecked")
  public BlockBuffers(long capacity, int smallest, int largest) {
    if (Integer.bitCount(smallest) != 1 || Integer.bitCount(largest) != 1 || largest < smallest) {
      throw new IllegalArgumentException("buffer sizes are powers of two, smallest <= largest, not "
          + smallest + " and " + largest);
    }
    this.capacity = Math.max(0, capacity);
    this.smallest = smallest;
    this.largest = largest;
    this.free = new ArrayDeque[Integer.numberOfTrailingZeros(largest / smallest) + 1];
    for (int i = 0; i < free.length; i++) {
      free[i] = new ArrayDeque<>();
    }
  }

  /** A buffer of {@code size} bytes (position 0, limit {@code size}): a free direct one, a new one, or a heap one. */
  public ByteBuffer take(int size) {
    if (size <= largest) {
      int rounded = size <= smallest ? smallest : Integer.highestOneBit(size - 1) << 1;
      synchronized (this) {
        ByteBuffer b = free[sizeClass(rounded)].poll();
        if (b != null) {
          freeBytes -= rounded;
        } else if (allocated + rounded <= capacity) {
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
  public void giveBack(ByteBuffer b) {
    if (b.isDirect()) {
      synchronized (this) {
        free[sizeClass(b.capacity())].push(b);
        freeBytes += b.capacity();
      }
    }
  }

  /** Takes back buffers nothing reads any more. */
  public void giveBack(Collection<ByteBuffer> buffers) {
    for (ByteBuffer b : buffers) {
      giveBack(b);
    }
  }

  /** Bytes of direct buffers allocated, in use or free: at most the capacity. */
  public synchronized long allocatedBytes() {
    return allocated;
  }

  /** Bytes of direct buffers free for the next take. */
  public synchronized long freeBytes() {
    return freeBytes;
  }

  private int sizeClass(int rounded) {
    int i = Integer.numberOfTrailingZeros(rounded / smallest);
    if (rounded < smallest || rounded > largest || Integer.bitCount(rounded) != 1) {
      throw new IllegalArgumentException("not a buffer of this pool: " + rounded + " bytes");
    }
    return i;
  }
}
