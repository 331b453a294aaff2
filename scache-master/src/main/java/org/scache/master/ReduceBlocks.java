package org.scache.master;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The reported blocks of one reduce of a shuffle, by map attempt, packed: the first attempt each map reported
 * (nearly always its only one) lies in arrays indexed by map id, its size, attempt and holder (an index into the
 * shuffle's {@link Holders}) taking 16 bytes; further attempts of a map lie in a map of their own. Not
 * thread-safe: guarded by its {@link ShuffleState}'s guard.
 */
final class ReduceBlocks {
  private static final int NONE = -1;

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

  private final Holders holders;
  /** The shuffle's maps, when known: the arrays' first length. */
  private final int expectedMaps;
  private long[] sizes = new long[0];
  private int[] attempts = new int[0];
  private int[] holderOf = new int[0];
  /** Blocks of a map attempt other than the one in the arrays, by {@link #key}. */
  private Map<Long, ShuffleState.BlockEntry> others = Map.of();

  ReduceBlocks(Holders holders, int expectedMaps) {
    this.holders = holders;
    this.expectedMaps = expectedMaps;
  }

  /** Records a block, replacing one of the same map attempt. */
  void put(int mapId, int attempt, long size, String holder) {
    if (mapId < 0 || attempt == NONE) {
      putOther(mapId, attempt, size, holder);
      return;
    }
    ensure(mapId);
    if (attempts[mapId] == NONE || attempts[mapId] == attempt) {
      attempts[mapId] = attempt;
      sizes[mapId] = size;
      holderOf[mapId] = holders.indexOf(holder);
      return;
    }
    putOther(mapId, attempt, size, holder);
  }

  private void putOther(int mapId, int attempt, long size, String holder) {
    if (others.isEmpty()) {
      others = new HashMap<>();
    }
    others.put(key(mapId, attempt), new ShuffleState.BlockEntry(mapId, attempt, size, holder));
  }

  ShuffleState.BlockEntry get(int mapId, int attempt) {
    if (mapId >= 0 && mapId < attempts.length && attempts[mapId] == attempt && attempt != NONE) {
      return entry(mapId);
    }
    return others.get(key(mapId, attempt));
  }

  /** The size of a map attempt's block, read without building its entry; -1 if none is recorded. */
  long sizeOf(int mapId, int attempt) {
    if (mapId >= 0 && mapId < attempts.length && attempts[mapId] == attempt && attempt != NONE) {
      return sizes[mapId];
    }
    ShuffleState.BlockEntry other = others.isEmpty() ? null : others.get(key(mapId, attempt));
    return other == null ? -1 : other.size();
  }

  /** The worker holding a map attempt's block; null if none is recorded. */
  String holderOf(int mapId, int attempt) {
    if (mapId >= 0 && mapId < attempts.length && attempts[mapId] == attempt && attempt != NONE) {
      return holders.name(holderOf[mapId]);
    }
    ShuffleState.BlockEntry other = others.isEmpty() ? null : others.get(key(mapId, attempt));
    return other == null ? null : other.holder();
  }

  /** Forgets the block of a map attempt; whether there was one. */
  boolean remove(int mapId, int attempt) {
    if (mapId >= 0 && mapId < attempts.length && attempts[mapId] == attempt && attempt != NONE) {
      attempts[mapId] = NONE;
      return true;
    }
    return !others.isEmpty() && others.remove(key(mapId, attempt)) != null;
  }

  void forEach(Consumer<ShuffleState.BlockEntry> action) {
    for (int m = 0; m < attempts.length; m++) {
      if (attempts[m] != NONE) {
        action.accept(entry(m));
      }
    }
    others.values().forEach(action);
  }

  /** Forgets every block {@code which} selects. */
  void removeIf(Predicate<ShuffleState.BlockEntry> which) {
    for (int m = 0; m < attempts.length; m++) {
      if (attempts[m] != NONE && which.test(entry(m))) {
        attempts[m] = NONE;
      }
    }
    if (!others.isEmpty()) {
      others.values().removeIf(which);
    }
  }

  private ShuffleState.BlockEntry entry(int mapId) {
    return new ShuffleState.BlockEntry(mapId, attempts[mapId], sizes[mapId], holders.name(holderOf[mapId]));
  }

  private void ensure(int mapId) {
    if (mapId < attempts.length) {
      return;
    }
    long grown = Math.max(Math.max(8L, expectedMaps), attempts.length * 2L);
    int length = (int) Math.min(Integer.MAX_VALUE - 8, Math.max(grown, mapId + 1L));
    int from = attempts.length;
    sizes = Arrays.copyOf(sizes, length);
    attempts = Arrays.copyOf(attempts, length);
    holderOf = Arrays.copyOf(holderOf, length);
    Arrays.fill(attempts, from, length, NONE);
  }

  private static long key(int map, int attempt) {
    return ((long) map << 32) | (attempt & 0xFFFFFFFFL);
  }
}
