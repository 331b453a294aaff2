package org.scache.worker.store;

import java.util.function.Consumer;
import org.scache.common.BlockId;

/**
 * The store's blocks by id: an open-addressing table of the blocks themselves (each knows its id), a reference a slot,
 * instead of a hash map's node and key per block. Linear probing, at most {@link #MAX_LOAD} full, deletion by moving
 * later entries of a run back so that no tombstones accumulate. Not thread-safe: guarded by the {@link BlockStore}.
 */
final class BlockTable {
  private static final double MAX_LOAD = 0.6;
  private static final int MIN_CAPACITY = 16;

  private StoredBlock[] slots = new StoredBlock[MIN_CAPACITY];
  private int size;

  StoredBlock get(BlockId id) {
    int mask = slots.length - 1;
    for (int i = home(id, mask); ; i = (i + 1) & mask) {
      StoredBlock b = slots[i];
      if (b == null || b.is(id)) {
        return b;
      }
    }
  }

  /** The block held under the id of {@code like} (itself, or another of that id), or null. */
  StoredBlock get(StoredBlock like) {
    int mask = slots.length - 1;
    for (int i = home(like, mask); ; i = (i + 1) & mask) {
      StoredBlock b = slots[i];
      if (b == null || b.sameId(like)) {
        return b;
      }
    }
  }

  /** Holds {@code block} under its id, in place of any block of that id; the one it replaced, or null. */
  StoredBlock put(StoredBlock block) {
    if (size + 1 > slots.length * MAX_LOAD) {
      resize(slots.length * 2);
    }
    int mask = slots.length - 1;
    for (int i = home(block, mask); ; i = (i + 1) & mask) {
      StoredBlock b = slots[i];
      if (b == null) {
        slots[i] = block;
        size++;
        return null;
      }
      if (b.sameId(block)) {
        slots[i] = block;
        return b;
      }
    }
  }

  /** Forgets the block held under {@code id}; the block, or null if none was. */
  StoredBlock remove(BlockId id) {
    int mask = slots.length - 1;
    for (int i = home(id, mask); ; i = (i + 1) & mask) {
      StoredBlock b = slots[i];
      if (b == null) {
        return null;
      }
      if (b.is(id)) {
        return removeAt(i, mask);
      }
    }
  }

  /** Forgets the block held under the id of {@code like}; the block, or null if none was. */
  StoredBlock remove(StoredBlock like) {
    int mask = slots.length - 1;
    for (int i = home(like, mask); ; i = (i + 1) & mask) {
      StoredBlock b = slots[i];
      if (b == null) {
        return null;
      }
      if (b.sameId(like)) {
        return removeAt(i, mask);
      }
    }
  }

  private StoredBlock removeAt(int i, int mask) {
    StoredBlock b = slots[i];
    closeGap(i, mask);
    size--;
    if (slots.length > MIN_CAPACITY && size < slots.length * MAX_LOAD / 8) {
      resize(slots.length / 2);
    }
    return b;
  }

  int size() {
    return size;
  }

  void forEach(Consumer<StoredBlock> action) {
    for (StoredBlock b : slots) {
      if (b != null) {
        action.accept(b);
      }
    }
  }

  void clear() {
    slots = new StoredBlock[MIN_CAPACITY];
    size = 0;
  }

  /** Empties slot {@code gap}, moving back each later entry of its run whose home is not after the gap. */
  private void closeGap(int gap, int mask) {
    slots[gap] = null;
    for (int j = (gap + 1) & mask; slots[j] != null; j = (j + 1) & mask) {
      int home = home(slots[j], mask);
      if (((j - home) & mask) >= ((j - gap) & mask)) {
        slots[gap] = slots[j];
        slots[j] = null;
        gap = j;
      }
    }
  }

  private void resize(int capacity) {
    StoredBlock[] old = slots;
    slots = new StoredBlock[capacity];
    int mask = capacity - 1;
    for (StoredBlock b : old) {
      if (b != null) {
        int i = home(b, mask);
        while (slots[i] != null) {
          i = (i + 1) & mask;
        }
        slots[i] = b;
      }
    }
  }

  private static int home(BlockId id, int mask) {
    return home(id.appId(), id.shuffleId(), id.mapId(), id.attempt(), id.reduceId(), mask);
  }

  private static int home(StoredBlock b, int mask) {
    return home(b.appId(), b.shuffleId(), b.mapId(), b.attempt(), b.reduceId(), mask);
  }

  private static int home(String appId, int shuffleId, int mapId, int attempt, int reduceId, int mask) {
    int h = (((appId.hashCode() * 31 + shuffleId) * 31 + mapId) * 31 + attempt) * 31 + reduceId;
    h *= 0x9E3779B9;
    return (h ^ (h >>> 16)) & mask;
  }

  @Override
  public String toString() {
    return size + " blocks in " + slots.length + " slots";
  }
}
