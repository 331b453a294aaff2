package org.scache.worker.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.scache.common.BlockId;
import org.scache.worker.spill.SpillCandidate;

class VictimTreeTest {
  private static final Comparator<SpillCandidate> BY_MAP_THEN_REDUCE =
      Comparator.comparingInt(SpillCandidate::mapId).thenComparingInt(SpillCandidate::reduceId);

  /** An entry of a tree: a candidate of a map and a reduce, sorted as it was made. */
  private static final class Entry extends VictimTree.Node<Entry> implements SpillCandidate {
    private final SpillCandidate values;

    Entry(int map, int reduce) {
      values = SpillCandidate.unscheduled(new BlockId("app", 0, map, 0, reduce), 0, false, false, 0);
    }

    @Override
    public BlockId id() {
      return values.id();
    }

    @Override
    public long size() {
      return 0;
    }

    @Override
    public boolean copy() {
      return false;
    }

    @Override
    public boolean consumed() {
      return false;
    }

    @Override
    public long lastAccessNanos() {
      return 0;
    }

    @Override
    public boolean scheduled() {
      return false;
    }

    @Override
    public long submissionTimeMillis() {
      return 0;
    }

    @Override
    public int round() {
      return 0;
    }

    @Override
    public boolean roundIncomplete() {
      return false;
    }
  }

  private static Entry block(int map, int reduce) {
    return new Entry(map, reduce);
  }

  @Test
  void randomAddsAndRemoves_keepTheOrderASortedSetKeeps() {
    Random random = new Random(11);
    VictimTree<Entry> tree = new VictimTree<>(BY_MAP_THEN_REDUCE);
    TreeSet<SpillCandidate> reference = new TreeSet<>(BY_MAP_THEN_REDUCE);
    List<Entry> held = new ArrayList<>();
    for (int step = 0; step < 50_000; step++) {
      if (held.isEmpty() || random.nextInt(5) < 3) {
        Entry b = block(random.nextInt(1000), random.nextInt(1000));
        if (reference.add(b)) {
          tree.add(b);
          held.add(b);
        }
      } else {
        Entry b = held.remove(random.nextInt(held.size()));
        assertTrue(tree.remove(b));
        assertTrue(reference.remove(b));
      }
      assertEquals(reference.size(), tree.size());
      assertSame(reference.isEmpty() ? null : reference.first(), tree.first());
      assertSame(reference.isEmpty() ? null : reference.last(), tree.last());
      SpillCandidate probe = block(random.nextInt(1000), random.nextInt(1000));
      assertSame(reference.higher(probe), tree.higher(probe), "the block after a key not in the tree");
      if (step % 5000 == 0) {
        assertEquals(new ArrayList<>(reference), tree.inOrder());
      }
    }
  }

  @Test
  void aBlockNotInTheTree_isNotRemoved_evenWhenAnotherSortsAsIt() {
    VictimTree<Entry> tree = new VictimTree<>(BY_MAP_THEN_REDUCE);
    Entry a = block(1, 1);
    tree.add(a);

    assertFalse(tree.remove(block(1, 1)), "another block of the same place");
    assertFalse(tree.remove(block(2, 2)));
    assertEquals(List.of(a), tree.inOrder());
    tree.clear();
    assertTrue(tree.isEmpty());
    assertNull(tree.first());
    assertFalse(tree.remove(a));
  }
}
