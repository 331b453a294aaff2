package org.scache.worker.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
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

  private static StoredBlock block(int map, int reduce) {
    return new StoredBlock(new BlockId("app", 0, map, 0, reduce), Unpooled.EMPTY_BUFFER, false, 0);
  }

  @Test
  void randomAddsAndRemoves_keepTheOrderASortedSetKeeps() {
    Random random = new Random(11);
    VictimTree<StoredBlock> tree = new VictimTree<>(BY_MAP_THEN_REDUCE);
    TreeSet<SpillCandidate> reference = new TreeSet<>(BY_MAP_THEN_REDUCE);
    List<StoredBlock> held = new ArrayList<>();
    for (int step = 0; step < 50_000; step++) {
      if (held.isEmpty() || random.nextInt(5) < 3) {
        StoredBlock b = block(random.nextInt(1000), random.nextInt(1000));
        if (reference.add(b)) {
          tree.add(b);
          held.add(b);
        }
      } else {
        StoredBlock b = held.remove(random.nextInt(held.size()));
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
    VictimTree<StoredBlock> tree = new VictimTree<>(BY_MAP_THEN_REDUCE);
    StoredBlock a = block(1, 1);
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
