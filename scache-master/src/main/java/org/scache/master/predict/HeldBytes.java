package org.scache.master.predict;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The bytes of a shuffle's stored map output by holder and reduce: what eq. 3's largest share, the balancing at the
 * maps' end and a reduce's read plan need, kept as holders × reduces sums rather than a size per block. A holder's
 * column takes four bytes a reduce, eight once one of its sums passes 2 GiB, and grows with the highest reduce it
 * holds. Not thread-safe.
 */
public final class HeldBytes {
  private final List<String> names = new ArrayList<>();
  private final Map<String, Integer> index = new HashMap<>();
  /** Each holder's sums while they all fit an int; null once {@link #large} holds them. */
  private int[][] small = new int[0][];
  private long[][] large = new long[0][];
  /** The shuffle's reduces when known (0 before): a column's first length, so that it is allocated once. */
  private int reduces;

  /** The shuffle's reduces are known: columns are allocated at that length. */
  public void reducesKnown(int count) {
    reduces = Math.max(0, count);
  }

  /** The index of a holder, named once. */
  public int indexOf(String holder) {
    Integer known = index.get(holder);
    if (known != null) {
      return known;
    }
    int i = names.size();
    names.add(holder);
    index.put(holder, i);
    small = Arrays.copyOf(small, i + 1);
    large = Arrays.copyOf(large, i + 1);
    small[i] = new int[0];
    return i;
  }

  /** The index of a holder already named, or -1. */
  public int find(String holder) {
    return index.getOrDefault(holder, -1);
  }

  public int holders() {
    return names.size();
  }

  public String name(int holder) {
    return names.get(holder);
  }

  /** {@code size} more bytes of {@code reduce} are held by {@code holder}. */
  public void add(int holder, int reduce, long size) {
    set(holder, reduce, held(holder, reduce) + size);
  }

  /** {@code size} bytes of {@code reduce} are no longer held by {@code holder} (never below 0). */
  public void remove(int holder, int reduce, long size) {
    set(holder, reduce, Math.max(0, held(holder, reduce) - size));
  }

  /** The holder holds nothing any more (it died or restarted). */
  public void clear(int holder) {
    small[holder] = new int[0];
    large[holder] = null;
  }

  /** Bytes of {@code reduce} held by {@code holder}. */
  public long held(int holder, int reduce) {
    if (large[holder] != null) {
      return reduce < large[holder].length ? large[holder][reduce] : 0;
    }
    return reduce < small[holder].length ? small[holder][reduce] : 0;
  }

  private void set(int holder, int reduce, long bytes) {
    if (large[holder] == null && bytes > Integer.MAX_VALUE) {
      large[holder] = Arrays.stream(small[holder]).asLongStream().toArray();
      small[holder] = null;
    }
    if (large[holder] != null) {
      large[holder] = grown(large[holder], reduce);
      large[holder][reduce] = bytes;
    } else {
      if (reduce >= small[holder].length) {
        small[holder] = Arrays.copyOf(small[holder], length(small[holder].length, reduce));
      }
      small[holder][reduce] = (int) bytes;
    }
  }

  private long[] grown(long[] column, int reduce) {
    return reduce < column.length ? column : Arrays.copyOf(column, length(column.length, reduce));
  }

  private int length(int now, int reduce) {
    return Math.max(reduce + 1, now == 0 && reduces > 0 ? reduces : Math.max(8, now * 2));
  }

  /** Each reduce's bytes over every holder, for reduces {@code [0, reduces)}. */
  public long[] byReduce(int reduces) {
    long[] total = new long[reduces];
    for (int h = 0; h < names.size(); h++) {
      for (int r = 0; r < reduces; r++) {
        total[r] += held(h, r);
      }
    }
    return total;
  }

  /**
   * Each reduce's bytes held by each worker of {@code workers} (worker id to its index there), for reduces
   * {@code [0, reduces)}: [reduce][worker]; a holder not in it is left out.
   */
  public long[][] byReduceAndWorker(int reduces, Map<String, Integer> workers) {
    long[][] held = new long[reduces][workers.size()];
    for (int h = 0; h < names.size(); h++) {
      Integer w = workers.get(names.get(h));
      if (w == null) {
        continue;
      }
      for (int r = 0; r < reduces; r++) {
        held[r][w] = held(h, r);
      }
    }
    return held;
  }
}
