package org.scache.master;

import java.util.Arrays;

/**
 * The reported blocks of one map attempt that is not (yet) its map's final attempt, by reduce: exact sizes and
 * holders, kept only while the attempt runs. Its map's end folds them into the shuffle's sums, or forgets them when
 * another attempt ended. Not thread-safe: guarded by its {@link ShuffleState}'s guard.
 */
final class AttemptBlocks {
  private static final long ABSENT = -1;

  /** The size of each reduce's block, ABSENT for none. */
  private long[] sizes = new long[0];
  private int[] holders = new int[0];
  private int count;

  /** Records a block, replacing one of the same reduce. */
  void put(int reduce, long size, int holder) {
    if (reduce >= sizes.length) {
      int length = Math.max(reduce + 1, Math.max(8, sizes.length * 2));
      int from = sizes.length;
      sizes = Arrays.copyOf(sizes, length);
      holders = Arrays.copyOf(holders, length);
      Arrays.fill(sizes, from, length, ABSENT);
    }
    if (sizes[reduce] == ABSENT) {
      count++;
    }
    sizes[reduce] = size;
    holders[reduce] = holder;
  }

  /** The reduces this attempt may hold a block of: [0, span). */
  int span() {
    return sizes.length;
  }

  boolean has(int reduce) {
    return reduce >= 0 && reduce < sizes.length && sizes[reduce] != ABSENT;
  }

  long size(int reduce) {
    return sizes[reduce];
  }

  int holder(int reduce) {
    return holders[reduce];
  }

  /** Forgets the block of {@code reduce} if {@code holder} holds it. */
  void remove(int reduce, int holder) {
    if (has(reduce) && holders[reduce] == holder) {
      sizes[reduce] = ABSENT;
      count--;
    }
  }

  /** Forgets every block {@code holder} holds. */
  void removeHolder(int holder) {
    for (int r = 0; r < sizes.length; r++) {
      remove(r, holder);
    }
  }

  boolean isEmpty() {
    return count == 0;
  }
}
