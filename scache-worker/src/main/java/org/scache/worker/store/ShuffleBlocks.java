package org.scache.worker.store;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.scache.common.ShuffleKey;

/**
 * The blocks of one shuffle the store holds, by map and by reduce: each a list linked through the blocks themselves
 * ({@link StoredBlock#prevOfMap} and the others), so that a map's end or a reduce's commit finds its blocks among
 * the shuffle's without walking the others, at four references a block; and the {@link BlockOrder}'s groups of its
 * reduces' blocks, by reduce. Holds the store's one key of the shuffle, which its blocks keep. A block is in at most
 * one. Guarded by the {@link BlockStore}, as the {@link BlockOrder} that keeps it.
 */
final class ShuffleBlocks {
  private final ShuffleKey key;
  private final BlockHeads byMap = new BlockHeads();
  private final BlockHeads byReduce = new BlockHeads();
  /** The order's groups of this shuffle's reduces ({@link VictimGroup#key()}), under a policy that has them. */
  private final Map<Long, VictimGroup> groups = new HashMap<>();
  private int size;

  ShuffleBlocks(ShuffleKey key) {
    this.key = key;
  }

  ShuffleKey key() {
    return key;
  }

  /** Links a block of this shuffle not in any shuffle's lists; it keeps this one's key from now on. */
  void add(StoredBlock b) {
    b.keyedBy(key);
    StoredBlock mapHead = byMap.put(b.mapId(), b);
    b.prevOfMap = null;
    b.nextOfMap = mapHead;
    if (mapHead != null) {
      mapHead.prevOfMap = b;
    }
    StoredBlock reduceHead = byReduce.put(b.reduceId(), b);
    b.prevOfReduce = null;
    b.nextOfReduce = reduceHead;
    if (reduceHead != null) {
      reduceHead.prevOfReduce = b;
    }
    size++;
  }

  /** Unlinks a block of this shuffle; false if it is not in its lists. */
  boolean remove(StoredBlock b) {
    if (b.prevOfMap == null && byMap.get(b.mapId()) != b) {
      return false;
    }
    if (b.prevOfMap != null) {
      b.prevOfMap.nextOfMap = b.nextOfMap;
    } else if (b.nextOfMap != null) {
      byMap.put(b.mapId(), b.nextOfMap);
    } else {
      byMap.remove(b.mapId());
    }
    if (b.nextOfMap != null) {
      b.nextOfMap.prevOfMap = b.prevOfMap;
    }
    if (b.prevOfReduce != null) {
      b.prevOfReduce.nextOfReduce = b.nextOfReduce;
    } else if (b.nextOfReduce != null) {
      byReduce.put(b.reduceId(), b.nextOfReduce);
    } else {
      byReduce.remove(b.reduceId());
    }
    if (b.nextOfReduce != null) {
      b.nextOfReduce.prevOfReduce = b.prevOfReduce;
    }
    unlink(b);
    size--;
    return true;
  }

  boolean isEmpty() {
    return size == 0;
  }

  /** Every block, as a list the caller may keep while blocks come and go. */
  List<StoredBlock> snapshot() {
    List<StoredBlock> out = new ArrayList<>(size);
    for (StoredBlock head : byMap.heads()) {
      for (StoredBlock b = head; b != null; b = b.nextOfMap) {
        out.add(b);
      }
    }
    return out;
  }

  /** The blocks of map {@code mapId}, every attempt's, as a list of the caller's. */
  List<StoredBlock> ofMap(int mapId) {
    List<StoredBlock> out = new ArrayList<>();
    for (StoredBlock b = byMap.get(mapId); b != null; b = b.nextOfMap) {
      out.add(b);
    }
    return out;
  }

  /** The blocks of reduce {@code reduceId}, as a list of the caller's. */
  List<StoredBlock> ofReduce(int reduceId) {
    List<StoredBlock> out = new ArrayList<>();
    for (StoredBlock b = byReduce.get(reduceId); b != null; b = b.nextOfReduce) {
      out.add(b);
    }
    return out;
  }

  /** The reduces of which a block is held. */
  List<Integer> reduces() {
    return byReduce.keys();
  }

  /** The group of a reduce's blocks under {@code key} ({@link VictimGroup#key}), or null. */
  VictimGroup group(long key) {
    return groups.get(key);
  }

  void addGroup(VictimGroup g) {
    groups.put(g.key(), g);
  }

  void removeGroup(VictimGroup g) {
    groups.remove(g.key(), g);
  }

  /** The groups of one reduce's blocks, as a list of the caller's. */
  List<VictimGroup> groupsOf(int reduceId) {
    List<VictimGroup> out = new ArrayList<>(2);
    long first = VictimGroup.firstKey(reduceId);
    for (long key = first; key < first + VictimGroup.KEYS_PER_REDUCE; key++) {
      VictimGroup g = groups.get(key);
      if (g != null) {
        out.add(g);
      }
    }
    return out;
  }

  /** Every group of the shuffle's reduces, as a list of the caller's. */
  List<VictimGroup> groups() {
    return new ArrayList<>(groups.values());
  }

  /** Unlinks every block. */
  void clear() {
    groups.clear();
    for (StoredBlock head : byMap.heads()) {
      for (StoredBlock b = head; b != null; ) {
        StoredBlock next = b.nextOfMap;
        unlink(b);
        b = next;
      }
    }
    byMap.clear();
    byReduce.clear();
    size = 0;
  }

  private static void unlink(StoredBlock b) {
    b.prevOfMap = null;
    b.nextOfMap = null;
    b.prevOfReduce = null;
    b.nextOfReduce = null;
  }
}
