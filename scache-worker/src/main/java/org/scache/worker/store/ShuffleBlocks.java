package org.scache.worker.store;

import java.util.ArrayList;
import java.util.List;

/**
 * The blocks of one shuffle the store holds, linked through the blocks themselves ({@link StoredBlock#prevInShuffle},
 * {@link StoredBlock#nextInShuffle}): two references a block rather than a set's node and table slots. A block is in
 * at most one. Guarded by the {@link BlockStore}, as the {@link BlockOrder} that keeps it.
 */
final class ShuffleBlocks {
  private StoredBlock head;
  private int size;

  /** Links a block not in any shuffle's list. */
  void add(StoredBlock b) {
    b.prevInShuffle = null;
    b.nextInShuffle = head;
    if (head != null) {
      head.prevInShuffle = b;
    }
    head = b;
    size++;
  }

  /** Unlinks a block of this list; false if it is not in it. */
  boolean remove(StoredBlock b) {
    if (b.prevInShuffle == null && head != b) {
      return false;
    }
    if (b.prevInShuffle != null) {
      b.prevInShuffle.nextInShuffle = b.nextInShuffle;
    } else {
      head = b.nextInShuffle;
    }
    if (b.nextInShuffle != null) {
      b.nextInShuffle.prevInShuffle = b.prevInShuffle;
    }
    b.prevInShuffle = null;
    b.nextInShuffle = null;
    size--;
    return true;
  }

  boolean isEmpty() {
    return size == 0;
  }

  /** The blocks, as a list the caller may keep while blocks come and go. */
  List<StoredBlock> snapshot() {
    List<StoredBlock> out = new ArrayList<>(size);
    for (StoredBlock b = head; b != null; b = b.nextInShuffle) {
      out.add(b);
    }
    return out;
  }

  /** Unlinks every block. */
  void clear() {
    for (StoredBlock b = head; b != null; ) {
      StoredBlock next = b.nextInShuffle;
      b.prevInShuffle = null;
      b.nextInShuffle = null;
      b = next;
    }
    head = null;
    size = 0;
  }
}
