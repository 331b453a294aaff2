package org.scache.client;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Direct buffers lent up to {@code capacity} bytes at a time and reused once given back, for bytes
 * that live long enough that the collector would copy and promote them on the heap (and, a block of
 * a megabyte or more in a small heap, allocate it as a humongous object): the copied blocks of a
 * reduce input read in parts (until the reader releases each, {@link ReduceInput#release(ReduceInput.Block)})
 * and the chunks a Spark map task collects its partitions in (until their block is stored).
 *
 * <p>The memory comes from a pooled allocator of its own (pages of 8 KiB in chunks of 4 MiB, no
 * per-thread caches, since buffers are taken on one thread and given back on another): a buffer
 * takes its size rounded up to a page, whatever sizes the blocks of a shuffle have, and the pool
 * frees chunks that fall empty. A buffer past the capacity, or one the process's direct memory
 * cannot hold, is an ordinary heap buffer, left to the collector when given back. The allocator is
 * made at the first direct buffer: a process that never takes one (a map task, which only puts)
 * does not load and initialise it. Thread-safe.
 */
public final class BlockBuffers {
  private static final int PAGE = 8192;
  /** 8 KiB pages, 2^9 of them per chunk: 4 MiB; larger buffers are allocated and freed on their own. */
  private static final int MAX_ORDER = 9;

  private final long capacity;
  /** Made at the first direct buffer; guarded by this. */
  private PooledByteBufAllocator allocator;
  /** The buffers lent, by the view handed out; guarded by this. */
  private final Map<ByteBuffer, ByteBuf> lent = new IdentityHashMap<>();
  /** Bytes of direct buffers lent; guarded by this. */
  private long lentBytes;

  /** @param capacity bytes of direct buffers lent at most at a time (0: every buffer on the heap) */
  public BlockBuffers(long capacity) {
    this.capacity = Math.max(0, capacity);
  }

  private PooledByteBufAllocator allocator() {
    if (allocator == null) {
      int arenas = Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors()));
      allocator = new PooledByteBufAllocator(true, 0, arenas, PAGE, MAX_ORDER, 0, 0, false);
    }
    return allocator;
  }

  /**
   * Makes the allocator now if this pool lends direct buffers, so that the first {@link #take} does not: for a
   * process that knows it will take buffers and has time before it does.
   */
  public synchronized void prepare() {
    if (capacity > 0) {
      allocator();
    }
  }

  /** A buffer of {@code size} bytes (position 0, limit and capacity {@code size}): direct while the capacity allows,
      else on the heap. */
  public ByteBuffer take(int size) {
    if (size < 0) {
      throw new IllegalArgumentException("a buffer of " + size + " bytes");
    }
    synchronized (this) {
      if (lentBytes + size <= capacity) {
        ByteBuf buf;
        try {
          buf = allocator().directBuffer(size, size);
        } catch (OutOfMemoryError e) {
          return ByteBuffer.allocate(size); // the direct memory the JVM allows is taken
        }
        ByteBuffer view = buf.nioBuffer(0, size);
        lent.put(view, buf);
        lentBytes += size;
        return view;
      }
    }
    return ByteBuffer.allocate(size);
  }

  /** Takes back a buffer nothing reads any more; a heap one (or one given back before) is left to the collector. */
  public void giveBack(ByteBuffer b) {
    if (!b.isDirect()) {
      return;
    }
    ByteBuf buf;
    synchronized (this) {
      buf = lent.remove(b);
      if (buf == null) {
        return;
      }
      lentBytes -= buf.capacity();
    }
    buf.release();
  }

  /** Takes back buffers nothing reads any more. */
  public void giveBack(Collection<ByteBuffer> buffers) {
    for (ByteBuffer b : buffers) {
      giveBack(b);
    }
  }

  /** Bytes of direct buffers lent and not given back: at most the capacity. */
  public synchronized long lentBytes() {
    return lentBytes;
  }

  /** Bytes of direct memory the pool holds, lent or free for the next take. */
  public synchronized long pooledBytes() {
    return allocator == null ? 0 : allocator.metric().usedDirectMemory();
  }
}
