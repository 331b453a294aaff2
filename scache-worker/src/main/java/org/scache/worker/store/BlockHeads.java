package org.scache.worker.store;

import java.util.ArrayList;
import java.util.List;

/**
 * The first block of each list of a shuffle's blocks, by a map or reduce id ({@link ShuffleBlocks}): open addressing
 * over an int and a reference a slot, so that a shuffle of many maps with few blocks each on a worker (a reducer's
 * worker, holding copies) does not pay a hash map's node and boxed key per map. Linear probing, at most
 * {@link #MAX_LOAD} full, deletion by moving later entries of a run back. Not thread-safe.
 */
final class BlockHeads {
  private static final double MAX_LOAD = 0.6;
  private static final int MIN_CAPACITY = 8;

  private int[] keys = new int[MIN_CAPACITY];
  private StoredBlock[] heads = new StoredBlock[MIN_CAPACITY];
  private int size;

  StoredBlock get(int key) {
    int mask = heads.length - 1;
    for (int i = home(key, mask); heads[i] != null; i = (i + 1) & mask) {
      if (keys[i] == key) {
        return heads[i];
      }
    }
    return null;
  }

  /** Makes {@code head} the first block of {@code key}'s list; the one before, or null. */
  StoredBlock put(int key, StoredBlock head) {
    if (size + 1 > heads.length * MAX_LOAD) {
      resize(heads.length * 2);
    }
    int mask = heads.length - 1;
    int i = home(key, mask);
    for (; heads[i] != null; i = (i + 1) & mask) {
      if (keys[i] == key) {
        StoredBlock was = heads[i];
        heads[i] = head;
        return was;
      }
    }
    keys[i] = key;
    heads[i] = head;
    size++;
    return null;
  }

  /** Forgets {@code key}'s list. */
  void remove(int key) {
    int mask = heads.length - 1;
    for (int i = home(key, mask); heads[i] != null; i = (i + 1) & mask) {
      if (keys[i] == key) {
        closeGap(i, mask);
        size--;
        if (heads.length > MIN_CAPACITY && size < heads.length * MAX_LOAD / 8) {
          resize(heads.length / 2);
        }
        return;
      }
    }
  }

  int size() {
    return size;
  }

  /** The keys of the lists, in no order. */
  List<Integer> keys() {
    List<Integer> out = new ArrayList<>(size);
    for (int i = 0; i < heads.length; i++) {
      if (heads[i] != null) {
        out.add(keys[i]);
      }
    }
    return out;
  }

  /** The first block of every list, in no order. */
  List<StoredBlock> heads() {
    List<StoredBlock> out = new ArrayList<>(size);
    for (StoredBlock h : heads) {
      if (h != null) {
        out.add(h);
      }
    }
    return out;
  }

  void clear() {
    keys = new int[MIN_CAPACITY];
    heads = new StoredBlock[MIN_CAPACITY];
    size = 0;
  }

  private void closeGap(int gap, int mask) {
    heads[gap] = null;
    for (int j = (gap + 1) & mask; heads[j] != null; j = (j + 1) & mask) {
      int home = home(keys[j], mask);
      if (((j - home) & mask) >= ((j - gap) & mask)) {
        keys[gap] = keys[j];
        heads[gap] = heads[j];
        heads[j] = null;
        gap = j;
      }
    }
  }

  private void resize(int capacity) {
    int[] oldKeys = keys;
    StoredBlock[] oldHeads = heads;
    keys = new int[capacity];
    heads = new StoredBlock[capacity];
    int mask = capacity - 1;
    for (int j = 0; j < oldHeads.length; j++) {
      if (oldHeads[j] != null) {
        int i = home(oldKeys[j], mask);
        while (heads[i] != null) {
          i = (i + 1) & mask;
        }
        keys[i] = oldKeys[j];
        heads[i] = oldHeads[j];
      }
    }
  }

  private static int home(int key, int mask) {
    int h = key * 0x9E3779B9;
    return (h ^ (h >>> 16)) & mask;
  }

  @Override
  public String toString() {
    return size + " lists in " + heads.length + " slots";
  }
}
