package org.scache.worker.store;

import io.netty.buffer.ByteBuf;
import org.scache.common.BlockId;
import org.scache.worker.spill.SpillStore;

/**
 * A block put, before the store holds it: its id, whether it is a prefetched copy, and its bytes, in {@code data}
 * or where they were written on disk. The store takes {@code data} when it holds the block; otherwise the putter
 * {@link #release}s it.
 */
final class ArrivingBlock {
  private final BlockId id;
  private final boolean copy;
  private final int size;
  private final long nowNanos;
  private ByteBuf data;
  private final SpillStore.Location spilled;

  private ArrivingBlock(BlockId id, boolean copy, int size, ByteBuf data, SpillStore.Location spilled,
      long nowNanos) {
    this.id = id;
    this.copy = copy;
    this.size = size;
    this.data = data;
    this.spilled = spilled;
    this.nowNanos = nowNanos;
  }

  /** A block whose bytes are {@code data}. */
  static ArrivingBlock inMemory(BlockId id, ByteBuf data, boolean copy, long nowNanos) {
    return new ArrivingBlock(id, copy, data.readableBytes(), data, null, nowNanos);
  }

  /** A block that went straight to disk when it was put. */
  static ArrivingBlock spilled(BlockId id, int size, SpillStore.Location at, long nowNanos) {
    return new ArrivingBlock(id, false, size, null, at, nowNanos);
  }

  BlockId id() {
    return id;
  }

  boolean copy() {
    return copy;
  }

  int size() {
    return size;
  }

  long nowNanos() {
    return nowNanos;
  }

  /** Where it lies on disk, or null when its bytes are in memory. */
  SpillStore.Location spilledAt() {
    return spilled;
  }

  /** Its bytes, which the caller now holds (null once taken, or for a block on disk). */
  ByteBuf takeData() {
    ByteBuf d = data;
    data = null;
    return d;
  }

  /** The block was not held: its bytes in memory go back (a place on disk is the putter's to free). */
  void release() {
    ByteBuf d = takeData();
    if (d != null) {
      d.release();
    }
  }
}
