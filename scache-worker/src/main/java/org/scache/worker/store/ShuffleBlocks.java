package org.scache.worker.store;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.scache.common.ShuffleKey;

/**
 * The blocks of one shuffle the store holds: a {@link MapBlocks} for each map attempt with a block here, found by
 * map and attempt (an open-addressing table of their places, by map, so that a map's attempts are one run of it)
 * and by the order they came in; how many blocks each reduce has here, so that a reduce's blocks are
 * found among the map attempts' without walking the others' reduces; and the {@link BlockOrder}'s groups of its
 * reduces' blocks, by reduce. Holds the store's one key of the shuffle. Guarded by the {@link BlockStore}, as the
 * {@link BlockOrder} that keeps it.
 */
final class ShuffleBlocks {
  private final ShuffleKey key;
  private final boolean oneBlockGroups;
  private final boolean tracksLastUse;
  /** The map attempts' places + 1 by map, linear probing, at most half full; 0 is an empty slot. */
  private int[] byMap = new int[MIN_TABLE];
  private int mapAttempts;
  /** The map attempts by {@link MapBlocks#ordinal()}; null where one's blocks all went. */
  private final List<MapBlocks> byOrdinal = new ArrayList<>();
  /** Blocks held of each reduce. */
  private final Map<Integer, int[]> perReduce = new HashMap<>();
  /** The order's groups of this shuffle's reduces ({@link VictimGroup#key()}), under a policy that has them. */
  private final Map<Long, VictimGroup> groups = new HashMap<>();
  private int size;

  private static final int MIN_TABLE = 8;

  /**
   * The blocks of shuffle {@code key}; their groups in the order are one block each if {@code oneBlockGroups}, and
   * their last uses are kept if {@code tracksLastUse}.
   */
  ShuffleBlocks(ShuffleKey key, boolean oneBlockGroups, boolean tracksLastUse) {
    this.key = key;
    this.oneBlockGroups = oneBlockGroups;
    this.tracksLastUse = tracksLastUse;
  }

  ShuffleKey key() {
    return key;
  }

  boolean oneBlockGroups() {
    return oneBlockGroups;
  }

  boolean tracksLastUse() {
    return tracksLastUse;
  }

  /** Holds a block of this shuffle whose id is not held here, taking its bytes. */
  StoredBlock add(ArrivingBlock block) {
    int mapId = block.id().mapId();
    int attempt = block.id().attempt();
    MapBlocks m = attemptOf(mapId, attempt);
    if (m == null) {
      m = new MapBlocks(this, mapId, attempt, byOrdinal.size());
      byOrdinal.add(m);
      insert(m);
    }
    int reduce = block.id().reduceId();
    int slot = m.add(reduce, block);
    perReduce.computeIfAbsent(reduce, r -> new int[1])[0]++;
    size++;
    return new StoredBlock(m, slot);
  }

  /** The block of this map, attempt and reduce held, or null. */
  StoredBlock find(int mapId, int attempt, int reduceId) {
    MapBlocks m = attemptOf(mapId, attempt);
    if (m == null) {
      return null;
    }
    int slot = m.heldSlotOf(reduceId);
    return slot < 0 ? null : new StoredBlock(m, slot);
  }

  private MapBlocks attemptOf(int mapId, int attempt) {
    int mask = byMap.length - 1;
    for (int i = home(mapId, mask); byMap[i] != 0; i = (i + 1) & mask) {
      MapBlocks m = byOrdinal.get(byMap[i] - 1);
      if (m.mapId() == mapId && m.attempt() == attempt) {
        return m;
      }
    }
    return null;
  }

  private void insert(MapBlocks m) {
    if ((mapAttempts + 1) * 2 > byMap.length) {
      resize(byMap.length * 2);
    }
    put(byMap, m);
    mapAttempts++;
  }

  private void put(int[] table, MapBlocks m) {
    int mask = table.length - 1;
    int i = home(m.mapId(), mask);
    while (table[i] != 0) {
      i = (i + 1) & mask;
    }
    table[i] = m.ordinal() + 1;
  }

  private void resize(int capacity) {
    int[] old = byMap;
    byMap = new int[capacity];
    for (int v : old) {
      if (v != 0) {
        put(byMap, byOrdinal.get(v - 1));
      }
    }
  }

  /** Empties the slot of {@code m}, moving back each later entry of its run whose home is not after the gap. */
  private void delete(MapBlocks m) {
    int mask = byMap.length - 1;
    int gap = home(m.mapId(), mask);
    while (byMap[gap] != m.ordinal() + 1) {
      gap = (gap + 1) & mask;
    }
    byMap[gap] = 0;
    for (int j = (gap + 1) & mask; byMap[j] != 0; j = (j + 1) & mask) {
      int home = home(byOrdinal.get(byMap[j] - 1).mapId(), mask);
      if (((j - home) & mask) >= ((j - gap) & mask)) {
        byMap[gap] = byMap[j];
        byMap[j] = 0;
        gap = j;
      }
    }
    mapAttempts--;
    if (byMap.length > MIN_TABLE && mapAttempts * 8 < byMap.length) {
      resize(byMap.length / 2);
    }
  }

  private static int home(int mapId, int mask) {
    int h = mapId * 0x9E3779B9;
    return (h ^ (h >>> 16)) & mask;
  }

  /** Stops holding a held block of this shuffle (its bytes are the caller's to release); false if not held. */
  boolean remove(StoredBlock b) {
    MapBlocks m = b.blocks();
    if (m.shuffle() != this || !b.held()) {
      return false;
    }
    m.unhold(b.slot());
    int reduce = b.reduceId();
    int[] n = perReduce.get(reduce);
    if (--n[0] == 0) {
      perReduce.remove(reduce);
    }
    size--;
    if (m.held() == 0) {
      forget(m);
    }
    return true;
  }

  /** A map attempt whose blocks all went: it is found no more. */
  private void forget(MapBlocks m) {
    delete(m);
    byOrdinal.set(m.ordinal(), null);
  }

  /** The map attempt of place {@code ordinal}, or null if none is held there. */
  MapBlocks mapAttempt(int ordinal) {
    return byOrdinal.get(ordinal);
  }

  /** The map attempt {@code mapId}.{@code attempt}, or null. */
  MapBlocks mapAttempt(int mapId, int attempt) {
    return attemptOf(mapId, attempt);
  }

  boolean isEmpty() {
    return size == 0;
  }

  int size() {
    return size;
  }

  /** Every map attempt held, in the order they came. */
  void forEachMapAttempt(Consumer<MapBlocks> action) {
    for (MapBlocks m : byOrdinal) {
      if (m != null) {
        action.accept(m);
      }
    }
  }

  /** Every block, as a list the caller may keep while blocks come and go. */
  List<StoredBlock> snapshot() {
    List<StoredBlock> out = new ArrayList<>(size);
    forEachMapAttempt(m -> addHeld(m, out));
    return out;
  }

  private static void addHeld(MapBlocks m, List<StoredBlock> out) {
    for (int s = 0; s < m.slots(); s++) {
      if (m.held(s)) {
        out.add(new StoredBlock(m, s));
      }
    }
  }

  /** The blocks of map {@code mapId}, every attempt's, as a list of the caller's. */
  List<StoredBlock> ofMap(int mapId) {
    List<StoredBlock> out = new ArrayList<>();
    int mask = byMap.length - 1;
    for (int i = home(mapId, mask); byMap[i] != 0; i = (i + 1) & mask) {
      MapBlocks m = byOrdinal.get(byMap[i] - 1);
      if (m.mapId() == mapId) {
        addHeld(m, out);
      }
    }
    return out;
  }

  /** The blocks of reduce {@code reduceId}, as a list of the caller's. */
  List<StoredBlock> ofReduce(int reduceId) {
    int[] n = perReduce.get(reduceId);
    if (n == null) {
      return List.of();
    }
    List<StoredBlock> out = new ArrayList<>(n[0]);
    for (MapBlocks m : byOrdinal) {
      if (m != null) {
        int s = m.heldSlotOf(reduceId);
        if (s >= 0) {
          out.add(new StoredBlock(m, s));
          if (out.size() == n[0]) {
            break;
          }
        }
      }
    }
    return out;
  }

  /** The reduces of which a block is held. */
  List<Integer> reduces() {
    return new ArrayList<>(perReduce.keySet());
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
    for (long k = first; k < first + VictimGroup.KEYS_PER_REDUCE; k++) {
      VictimGroup g = groups.get(k);
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

  /** Forgets every block and group (their bytes are the caller's to release first). */
  void clear() {
    groups.clear();
    byMap = new int[MIN_TABLE];
    mapAttempts = 0;
    byOrdinal.clear();
    perReduce.clear();
    size = 0;
  }

  @Override
  public String toString() {
    return key + " (" + size + " blocks)";
  }
}
