package org.scache.master;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The reported blocks of one reduce of a shuffle, by map attempt, packed: the blocks of each map's packed attempt
 * (its first to report, nearly always its only one: {@link PackedAttempts}, shared by the shuffle's reduces) lie in
 * one array of sizes indexed by map id, 4 bytes a block, their attempt and holder kept once per map for every
 * reduce; a block of another attempt, of another holder (a put redirected to another worker) or of 2 GiB or more
 * lies in a map of its own. Not thread-safe: guarded by its {@link ShuffleState}'s guard.
 */
final class ReduceBlocks {
  private static final int NONE = -1;
  private static final int ABSENT = -1;

  /** The workers holding a shuffle's blocks, each named once. */
  static final class Holders {
    private final List<String> names = new ArrayList<>();
    private final Map<String, Integer> index = new HashMap<>();

    int indexOf(String holder) {
      return index.computeIfAbsent(holder, h -> {
        names.add(h);
        return names.size() - 1;
      });
    }

    String name(int i) {
      return names.get(i);
    }
  }

  /**
   * Per shuffle, the attempt of each map whose blocks every reduce packs, and the worker holding them: the first
   * attempt reported, until {@link #repack} names the one that finished.
   */
  static final class PackedAttempts {
    private final Holders holders = new Holders();
    private int[] attempts = new int[0];
    private int[] holderOf = new int[0];

    Holders holders() {
      return holders;
    }

    /** Whether {@code attempt} on {@code holder} is map's packed attempt, making it so when the map has none. */
    boolean claim(int map, int attempt, int holder) {
      ensure(map);
      if (attempts[map] == NONE) {
        attempts[map] = attempt;
        holderOf[map] = holder;
        return true;
      }
      return attempts[map] == attempt && holderOf[map] == holder;
    }

    int attempt(int map) {
      return map < attempts.length ? attempts[map] : NONE;
    }

    int holder(int map) {
      return holderOf[map];
    }

    /** Makes {@code attempt} on {@code holder} the map's packed attempt; its reduces move its blocks in place. */
    void repack(int map, int attempt, int holder) {
      ensure(map);
      attempts[map] = attempt;
      holderOf[map] = holder;
    }

    private void ensure(int map) {
      if (map < attempts.length) {
        return;
      }
      int length = (int) Math.min(Integer.MAX_VALUE - 8, Math.max(map + 1L, Math.max(8L, attempts.length * 2L)));
      int from = attempts.length;
      attempts = Arrays.copyOf(attempts, length);
      holderOf = Arrays.copyOf(holderOf, length);
      Arrays.fill(attempts, from, length, NONE);
    }
  }

  private final PackedAttempts packed;
  private final Holders holders;
  /** The shuffle's maps, when known: the array's first length. */
  private final int expectedMaps;
  /** The size of each map's packed attempt's block, ABSENT when it reported none (or it was removed). */
  private int[] sizes = new int[0];
  /** Blocks not in the array, by {@link #key}. */
  private Map<Long, ShuffleState.BlockEntry> others = Map.of();

  ReduceBlocks(PackedAttempts packed, int expectedMaps) {
    this.packed = packed;
    this.holders = packed.holders();
    this.expectedMaps = expectedMaps;
  }

  /** Records a block, replacing one of the same map attempt. */
  void put(int mapId, int attempt, long size, String holder) {
    if (mapId >= 0 && attempt != NONE && size <= Integer.MAX_VALUE
        && packed.claim(mapId, attempt, holders.indexOf(holder))) {
      ensure(mapId);
      sizes[mapId] = (int) size;
      if (!others.isEmpty()) {
        others.remove(key(mapId, attempt));
      }
      return;
    }
    if (isPacked(mapId, attempt)) {
      sizes[mapId] = ABSENT;
    }
    if (others.isEmpty()) {
      others = new HashMap<>();
    }
    others.put(key(mapId, attempt), new ShuffleState.BlockEntry(mapId, attempt, size, holder));
  }

  ShuffleState.BlockEntry get(int mapId, int attempt) {
    if (isPacked(mapId, attempt)) {
      return entry(mapId);
    }
    return others.get(key(mapId, attempt));
  }

  /** The size of a map attempt's block, read without building its entry; -1 if none is recorded. */
  long sizeOf(int mapId, int attempt) {
    if (isPacked(mapId, attempt)) {
      return sizes[mapId];
    }
    ShuffleState.BlockEntry other = others.isEmpty() ? null : others.get(key(mapId, attempt));
    return other == null ? -1 : other.size();
  }

  /** The worker holding a map attempt's block; null if none is recorded. */
  String holderOf(int mapId, int attempt) {
    if (isPacked(mapId, attempt)) {
      return holders.name(packed.holder(mapId));
    }
    ShuffleState.BlockEntry other = others.isEmpty() ? null : others.get(key(mapId, attempt));
    return other == null ? null : other.holder();
  }

  /** Forgets the block of a map attempt; whether there was one. */
  boolean remove(int mapId, int attempt) {
    if (isPacked(mapId, attempt)) {
      sizes[mapId] = ABSENT;
      return true;
    }
    return !others.isEmpty() && others.remove(key(mapId, attempt)) != null;
  }

  /**
   * The map's packed attempt became {@code attempt} on {@code holder} ({@link PackedAttempts#repack}): its block,
   * if kept apart, moves into the array. No block of the map may lie in the array then.
   */
  void repacked(int mapId, int attempt) {
    ShuffleState.BlockEntry b = others.isEmpty() ? null : others.get(key(mapId, attempt));
    if (b == null || b.size() > Integer.MAX_VALUE || holders.indexOf(b.holder()) != packed.holder(mapId)) {
      return;
    }
    others.remove(key(mapId, attempt));
    ensure(mapId);
    sizes[mapId] = (int) b.size();
  }

  void forEach(Consumer<ShuffleState.BlockEntry> action) {
    for (int m = 0; m < sizes.length; m++) {
      if (sizes[m] != ABSENT) {
        action.accept(entry(m));
      }
    }
    others.values().forEach(action);
  }

  /** Forgets every block {@code which} selects. */
  void removeIf(Predicate<ShuffleState.BlockEntry> which) {
    for (int m = 0; m < sizes.length; m++) {
      if (sizes[m] != ABSENT && which.test(entry(m))) {
        sizes[m] = ABSENT;
      }
    }
    if (!others.isEmpty()) {
      others.values().removeIf(which);
    }
  }

  private boolean isPacked(int mapId, int attempt) {
    return mapId >= 0 && mapId < sizes.length && sizes[mapId] != ABSENT && attempt != NONE
        && packed.attempt(mapId) == attempt;
  }

  private ShuffleState.BlockEntry entry(int mapId) {
    return new ShuffleState.BlockEntry(mapId, packed.attempt(mapId), sizes[mapId],
        holders.name(packed.holder(mapId)));
  }

  private void ensure(int mapId) {
    if (mapId < sizes.length) {
      return;
    }
    long grown = Math.max(Math.max(8L, expectedMaps), sizes.length * 2L);
    int length = (int) Math.min(Integer.MAX_VALUE - 8, Math.max(grown, mapId + 1L));
    int from = sizes.length;
    sizes = Arrays.copyOf(sizes, length);
    Arrays.fill(sizes, from, length, ABSENT);
  }

  private static long key(int map, int attempt) {
    return ((long) map << 32) | (attempt & 0xFFFFFFFFL);
  }
}
