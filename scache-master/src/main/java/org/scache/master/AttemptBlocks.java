package org.scache.master;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The reported blocks of one map attempt that is not (yet) its map's final attempt, by reduce: exact sizes and
 * holders, kept only while the attempt runs (its blocks are put at its end, so a map's reports and its end come
 * close together). Its map's end folds them into the shuffle's sums, or forgets them when another attempt ended.
 * Four bytes a block: the attempt's holder is the first worker to report one of its blocks, and a block held by
 * another (a put redirected there) or of 2 GiB or more lies apart. Not thread-safe: guarded by its
 * {@link ShuffleState}'s guard.
 */
final class AttemptBlocks {
  private static final int ABSENT = -1;
  private static final int NONE = -1;


  /** The size of each reduce's block held by {@link #holder}, ABSENT for none there. */
  private int[] sizes = new int[0];
  private int holder = NONE;
  private Map<Integer, HeldBlock> apart = Map.of();
  private int count;

  /** An attempt of a shuffle of {@code reduces} reduces, when known (0 if not): its array's first length. */
  AttemptBlocks(int reduces) {
    sizes = new int[Math.max(0, reduces)];
    Arrays.fill(sizes, ABSENT);
  }

  /** Records a block, replacing one of the same reduce. */
  void put(int reduce, long size, int from) {
    if (holder == NONE) {
      holder = from;
    }
    if (has(reduce)) {
      remove(reduce);
    }
    count++;
    if (from == holder && size <= Integer.MAX_VALUE) {
      if (reduce >= sizes.length) {
        int length = Math.max(reduce + 1, Math.max(8, sizes.length * 2));
        int before = sizes.length;
        sizes = Arrays.copyOf(sizes, length);
        Arrays.fill(sizes, before, length, ABSENT);
      }
      sizes[reduce] = (int) size;
      return;
    }
    if (apart.isEmpty()) {
      apart = new HashMap<>();
    }
    apart.put(reduce, new HeldBlock(size, from));
  }

  /** The reduces this attempt may hold a block of: [0, span). */
  int span() {
    int most = sizes.length;
    for (int r : apart.keySet()) {
      most = Math.max(most, r + 1);
    }
    return most;
  }

  boolean has(int reduce) {
    return reduce >= 0 && (reduce < sizes.length && sizes[reduce] != ABSENT || apart.containsKey(reduce));
  }

  long size(int reduce) {
    return reduce < sizes.length && sizes[reduce] != ABSENT ? sizes[reduce] : apart.get(reduce).size();
  }

  int holder(int reduce) {
    return reduce < sizes.length && sizes[reduce] != ABSENT ? holder : apart.get(reduce).holder();
  }

  /** Forgets the block of {@code reduce} if {@code from} holds it. */
  void remove(int reduce, int from) {
    if (has(reduce) && holder(reduce) == from) {
      remove(reduce);
    }
  }

  private void remove(int reduce) {
    if (reduce < sizes.length && sizes[reduce] != ABSENT) {
      sizes[reduce] = ABSENT;
    } else {
      apart.remove(reduce);
    }
    count--;
  }

  /** Forgets every block {@code from} holds. */
  void removeHolder(int from) {
    if (from == holder) {
      for (int r = 0; r < sizes.length; r++) {
        if (sizes[r] != ABSENT) {
          sizes[r] = ABSENT;
          count--;
        }
      }
    }
    if (!apart.isEmpty()) {
      int before = apart.size();
      apart.values().removeIf(a -> a.holder() == from);
      count -= before - apart.size();
    }
  }

  boolean isEmpty() {
    return count == 0;
  }
}
