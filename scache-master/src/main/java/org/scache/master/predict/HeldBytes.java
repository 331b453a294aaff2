package org.scache.master.predict;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The bytes of a shuffle's stored map output by holder and reduce, and how many blocks make them: what eq. 3's largest
 * share, the balancing at the maps' end and a reduce's read plan need, kept as holders × reduces sums rather than a
 * block each. A holder's column grows with the highest reduce it holds. Not thread-safe.
 */
public final class HeldBytes {
  private final List<String> names = new ArrayList<>();
  private final Map<String, Integer> index = new HashMap<>();
  private long[][] bytes = new long[0][];
  private int[][] blocks = new int[0][];

  /** The index of a holder, named once. */
  public int indexOf(String holder) {
    Integer known = index.get(holder);
    if (known != null) {
      return known;
    }
    int i = names.size();
    names.add(holder);
    index.put(holder, i);
    bytes = Arrays.copyOf(bytes, i + 1);
    blocks = Arrays.copyOf(blocks, i + 1);
    bytes[i] = new long[0];
    blocks[i] = new int[0];
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

  /** A block of {@code size} bytes of {@code reduce} is held by {@code holder}. */
  public void add(int holder, int reduce, long size) {
    if (reduce >= bytes[holder].length) {
      int length = Math.max(reduce + 1, Math.max(8, bytes[holder].length * 2));
      bytes[holder] = Arrays.copyOf(bytes[holder], length);
      blocks[holder] = Arrays.copyOf(blocks[holder], length);
    }
    bytes[holder][reduce] += size;
    blocks[holder][reduce]++;
  }

  /** A block of {@code size} bytes is no longer held (its size known exactly). */
  public void remove(int holder, int reduce, long size) {
    if (reduce < bytes[holder].length && blocks[holder][reduce] > 0) {
      bytes[holder][reduce] = Math.max(0, bytes[holder][reduce] - size);
      blocks[holder][reduce]--;
      if (blocks[holder][reduce] == 0) {
        bytes[holder][reduce] = 0;
      }
    }
  }

  /** A block whose own size is not kept is no longer held: it takes the mean of its reduce's blocks there. */
  public void removeOne(int holder, int reduce) {
    remove(holder, reduce, mean(holder, reduce));
  }

  /** The holder holds nothing any more (it died or restarted). */
  public void clear(int holder) {
    bytes[holder] = new long[0];
    blocks[holder] = new int[0];
  }

  /** Bytes of {@code reduce} held by {@code holder}. */
  public long held(int holder, int reduce) {
    return reduce < bytes[holder].length ? bytes[holder][reduce] : 0;
  }

  /** How many blocks of {@code reduce} {@code holder} holds. */
  public int blocks(int holder, int reduce) {
    return reduce < blocks[holder].length ? blocks[holder][reduce] : 0;
  }

  /** The mean size of the blocks of {@code reduce} held by {@code holder}, 0 if none. */
  public long mean(int holder, int reduce) {
    if (reduce >= bytes[holder].length || blocks[holder][reduce] == 0) {
      return 0;
    }
    return Math.round((double) bytes[holder][reduce] / blocks[holder][reduce]);
  }

  /** Each reduce's bytes over every holder, for reduces {@code [0, reduces)}. */
  public long[] byReduce(int reduces) {
    long[] total = new long[reduces];
    for (long[] column : bytes) {
      for (int r = 0; r < Math.min(reduces, column.length); r++) {
        total[r] += column[r];
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
      long[] column = bytes[h];
      for (int r = 0; r < Math.min(reduces, column.length); r++) {
        held[r][w] = column[r];
      }
    }
    return held;
  }
}
