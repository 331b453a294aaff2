package org.scache.worker.store;

import java.util.HashMap;
import java.util.Map;

/**
 * The readers holding views of the places in the reserve of one map attempt's blocks ({@link MapBlocks}), by slot,
 * while any do, and which of those places the store let go of (the block spilled or removed): the last reader of such
 * a place gives it back to the pool. Readers release their views from any thread ({@link ReserveView}); guarded by
 * itself.
 */
final class ReserveReaders {
  private static final int OFFSET_BITS = 40;

  /** The places read now, by slot; null while none is. */
  private Map<Integer, Place> bySlot;

  /** A reader of slot {@code slot}'s place came: {@code reserveAt} (segment, offset), {@code size} bytes. */
  synchronized void came(int slot, long reserveAt, int size) {
    if (bySlot == null) {
      bySlot = new HashMap<>();
    }
    bySlot.computeIfAbsent(slot, k -> new Place(reserveAt, size)).readers++;
  }

  /** A reader of slot {@code slot}'s place in {@code pool} went: the last after the store let go gives it back. */
  void went(int slot, MemoryPool pool) {
    Place p;
    synchronized (this) {
      p = bySlot.get(slot);
      if (--p.readers > 0) {
        return;
      }
      bySlot.remove(slot);
      if (bySlot.isEmpty()) {
        bySlot = null;
      }
      if (!p.letGo) {
        return;
      }
    }
    free(pool, p.reserveAt, p.size);
  }

  /**
   * The store lets go of slot {@code slot}'s place: true when a reader holds it (the last gives it back), false when
   * none does (the caller gives it back now).
   */
  synchronized boolean letGo(int slot) {
    Place p = bySlot == null ? null : bySlot.get(slot);
    if (p == null) {
      return false;
    }
    p.letGo = true;
    return true;
  }

  /** Gives back to {@code pool} the place of a block of {@code size} bytes at {@code reserveAt}. */
  static void free(MemoryPool pool, long reserveAt, int size) {
    pool.freeRange(segment(reserveAt), offset(reserveAt), MemoryPool.align(size));
  }

  /** A place in the reserve as its segment and offset, {@code segment << 40 | offset}. */
  static long place(int segment, long offset) {
    return ((long) segment << OFFSET_BITS) | offset;
  }

  static int segment(long reserveAt) {
    return (int) (reserveAt >>> OFFSET_BITS);
  }

  static long offset(long reserveAt) {
    return reserveAt & ((1L << OFFSET_BITS) - 1);
  }

  /** One place read: where, its readers, and whether the store let go of it. */
  private static final class Place {
    private final long reserveAt;
    private final int size;
    private int readers;
    private boolean letGo;

    Place(long reserveAt, int size) {
      this.reserveAt = reserveAt;
      this.size = size;
    }
  }
}
