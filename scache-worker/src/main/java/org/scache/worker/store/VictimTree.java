package org.scache.worker.store;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.scache.worker.spill.SpillCandidate;

/**
 * Blocks sorted by a {@link org.scache.worker.spill.SpillPolicy}'s order, linked through the blocks themselves
 * ({@link StoredBlock#lower}, {@link StoredBlock#higher}): a treap whose priorities are the blocks' identity hashes,
 * two references a block instead of a sorted set's entry of five. A block is in at most one tree, and sorts as it
 * was when added until it is removed (the {@link BlockOrder} removes it before its rank changes). Not thread-safe:
 * guarded by the {@link BlockStore}, as the order that keeps it.
 */
final class VictimTree {
  private final Comparator<SpillCandidate> order;
  private StoredBlock root;
  private int size;

  VictimTree(Comparator<SpillCandidate> order) {
    this.order = order;
  }

  /** Adds a block that is in no tree. */
  void add(StoredBlock b) {
    b.lower = null;
    b.higher = null;
    root = insert(root, b);
    size++;
  }

  private StoredBlock insert(StoredBlock at, StoredBlock b) {
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
  boolean remove(StoredBlock b) {
    StoredBlock parent = null;
    StoredBlock at = root;
    while (at != null && at != b) {
      parent = at;
      at = order.compare(b, at) < 0 ? at.lower : at.higher;
    }
    if (at == null) {
      return false;
    }
    StoredBlock joined = join(b.lower, b.higher);
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

  /** The two subtrees of a removed block as one: every block of {@code low} sorts before every one of {@code high}. */
  private static StoredBlock join(StoredBlock low, StoredBlock high) {
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

  /** The first block in the order; null when empty. */
  StoredBlock first() {
    StoredBlock at = root;
    while (at != null && at.lower != null) {
      at = at.lower;
    }
    return at;
  }

  /** The last block in the order; null when empty. */
  StoredBlock last() {
    StoredBlock at = root;
    while (at != null && at.higher != null) {
      at = at.higher;
    }
    return at;
  }

  /** The first block that sorts after {@code key}, or null. */
  StoredBlock higher(SpillCandidate key) {
    StoredBlock found = null;
    for (StoredBlock at = root; at != null; ) {
      if (order.compare(key, at) < 0) {
        found = at;
        at = at.lower;
      } else {
        at = at.higher;
      }
    }
    return found;
  }

  /** Every block, in order. */
  List<StoredBlock> inOrder() {
    List<StoredBlock> out = new ArrayList<>(size);
    List<StoredBlock> stack = new ArrayList<>();
    StoredBlock at = root;
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

  /** Unlinks every block. */
  void clear() {
    inOrder().forEach(b -> {
      b.lower = null;
      b.higher = null;
    });
    root = null;
    size = 0;
  }

  private static StoredBlock rotateRight(StoredBlock at) {
    StoredBlock up = at.lower;
    at.lower = up.higher;
    up.higher = at;
    return up;
  }

  private static StoredBlock rotateLeft(StoredBlock at) {
    StoredBlock up = at.higher;
    at.higher = up.lower;
    up.lower = at;
    return up;
  }

  private static int priority(StoredBlock b) {
    return System.identityHashCode(b);
  }
}
