package org.scache.worker.store;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.scache.worker.spill.SpillCandidate;

/**
 * Entries sorted by a {@link org.scache.worker.spill.SpillPolicy}'s order, linked through the entries themselves
 * ({@link Node#lower}, {@link Node#higher}): a treap whose priorities are the entries' identity hashes, two
 * references an entry instead of a sorted set's entry of five. The {@link BlockOrder} keeps its {@link VictimGroup}s
 * in two of them, those of blocks in memory and those of spilled blocks no reducer read (a group keeps its own blocks
 * as a bit per map attempt). An entry is in at most one tree, and sorts as it was when added until it is removed (the
 * order removes it before its rank changes). Not thread-safe: guarded by the {@link BlockStore}, as the order that
 * keeps it.
 *
 * @param <T> what it sorts: {@link VictimGroup}s (tests sort entries of their own)
 */
final class VictimTree<T extends VictimTree.Node<T> & SpillCandidate> {
  /** What an entry of a tree holds of it: its two subtrees. */
  abstract static class Node<T> {
    T lower;
    T higher;
  }

  private final Comparator<SpillCandidate> order;
  private T root;
  private int size;

  VictimTree(Comparator<SpillCandidate> order) {
    this.order = order;
  }

  /** Adds an entry that is in no tree. */
  void add(T b) {
    b.lower = null;
    b.higher = null;
    root = insert(root, b);
    size++;
  }

  private T insert(T at, T b) {
    if (at == null) {
      return b;
    }
    if (order.compare(b, at) < 0) {
      at.lower = insert(at.lower, b);
      if (priority(at.lower) > priority(at)) {
        return rotateRight(at);
      }
    } else {
      at.higher = insert(at.higher, b);
      if (priority(at.higher) > priority(at)) {
        return rotateLeft(at);
      }
    }
    return at;
  }

  /** Removes {@code b} if it is in this tree; whether it was. */
  boolean remove(T b) {
    T parent = null;
    T at = root;
    while (at != null && at != b) {
      parent = at;
      at = order.compare(b, at) < 0 ? at.lower : at.higher;
    }
    if (at == null) {
      return false;
    }
    T joined = join(b.lower, b.higher);
    if (parent == null) {
      root = joined;
    } else if (parent.lower == b) {
      parent.lower = joined;
    } else {
      parent.higher = joined;
    }
    b.lower = null;
    b.higher = null;
    size--;
    return true;
  }

  /** The two subtrees of a removed entry as one: every entry of {@code low} sorts before every one of {@code high}. */
  private static <T extends Node<T>> T join(T low, T high) {
    if (low == null) {
      return high;
    }
    if (high == null) {
      return low;
    }
    if (priority(low) > priority(high)) {
      low.higher = join(low.higher, high);
      return low;
    }
    high.lower = join(low, high.lower);
    return high;
  }

  boolean isEmpty() {
    return size == 0;
  }

  int size() {
    return size;
  }

  /** The first entry in the order; null when empty. */
  T first() {
    T at = root;
    while (at != null && at.lower != null) {
      at = at.lower;
    }
    return at;
  }

  /** The last entry in the order; null when empty. */
  T last() {
    T at = root;
    while (at != null && at.higher != null) {
      at = at.higher;
    }
    return at;
  }

  /** The first entry that sorts after {@code key}, or null. */
  T higher(SpillCandidate key) {
    T found = null;
    for (T at = root; at != null; ) {
      if (order.compare(key, at) < 0) {
        found = at;
        at = at.lower;
      } else {
        at = at.higher;
      }
    }
    return found;
  }

  /** Every entry, in order. */
  List<T> inOrder() {
    List<T> out = new ArrayList<>(size);
    List<T> stack = new ArrayList<>();
    T at = root;
    while (at != null || !stack.isEmpty()) {
      while (at != null) {
        stack.add(at);
        at = at.lower;
      }
      at = stack.remove(stack.size() - 1);
      out.add(at);
      at = at.higher;
    }
    return out;
  }

  /** Unlinks every entry. */
  void clear() {
    inOrder().forEach(b -> {
      b.lower = null;
      b.higher = null;
    });
    root = null;
    size = 0;
  }

  private static <T extends Node<T>> T rotateRight(T at) {
    T up = at.lower;
    at.lower = up.higher;
    up.higher = at;
    return up;
  }

  private static <T extends Node<T>> T rotateLeft(T at) {
    T up = at.higher;
    at.higher = up.lower;
    up.lower = at;
    return up;
  }

  private static int priority(Object b) {
    return System.identityHashCode(b);
  }
}
