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
    return slots[slot(id.appId(), id.shuffleId(), id.mapId(), id.attempt(), id.reduceId())];
  }

  /** The block held under the id of {@code like} (itself, or another of that id), or null. */
  StoredBlock get(StoredBlock like) {
    return slots[slot(like)];
  }

  /** Holds {@code block} under its id, in place of any block of that id; the one it replaced, or null. */
  StoredBlock put(StoredBlock block) {
    if (size + 1 > slots.length * MAX_LOAD) {
      resize(slots.length * 2);
    }
    int i = slot(block);
    StoredBlock was = slots[i];
    slots[i] = block;
    if (was == null) {
      size++;
    }
    return was;
  }

  /** Forgets the block held under {@code id}; the block, or null if none was. */
  StoredBlock remove(BlockId id) {
    return removeAt(slot(id.appId(), id.shuffleId(), id.mapId(), id.attempt(), id.reduceId()));
  }

  /** Forgets the block held under the id of {@code like}; the block, or null if none was. */
  StoredBlock remove(StoredBlock like) {
    return removeAt(slot(like));
  }

  private int slot(StoredBlock b) {
    return slot(b.appId(), b.shuffleId(), b.mapId(), b.attempt(), b.reduceId());
  }

  /** The slot of the block of this id, or the empty slot that ends its run when none is held. */
  private int slot(String appId, int shuffleId, int mapId, int attempt, int reduceId) {
    int mask = slots.length - 1;
    for (int i = home(appId, shuffleId, mapId, attempt, reduceId, mask); ; i = (i + 1) & mask) {
      StoredBlock b = slots[i];
      if (b == null || b.reduceId() == reduceId && b.mapId() == mapId && b.attempt() == attempt
          && b.shuffleId() == shuffleId && b.appId().equals(appId)) {
        return i;
      }
    }
  }

  private StoredBlock removeAt(int i) {
    StoredBlock b = slots[i];
    if (b == null) {
      return null;
    }
    closeGap(i, slots.length - 1);
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
