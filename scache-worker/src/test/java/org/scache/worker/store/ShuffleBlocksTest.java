package org.scache.worker.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.scache.common.BlockId;
import org.scache.common.ShuffleKey;

class ShuffleBlocksTest {
  private static final ShuffleKey SHUFFLE = new ShuffleKey("app", 0);

  private static StoredBlock block(int map, int attempt, int reduce) {
    // the application's name as a put decoded from the wire brings it: a copy of its own
    return new StoredBlock(new BlockId(new String("app"), 0, map, attempt, reduce), Unpooled.buffer(1).writerIndex(1),
        false, 0);
  }

  @Test
  void blocksAreFoundByMapAndByReduce_andUnlinkedFromAnywhere() {
    ShuffleBlocks list = new ShuffleBlocks(SHUFFLE);
    StoredBlock a = block(0, 0, 0);
    StoredBlock b = block(0, 0, 1);
    StoredBlock c = block(1, 0, 1);
    StoredBlock d = block(0, 1, 1);
    List.of(a, b, c, d).forEach(list::add);
    List<StoredBlock> before = list.snapshot();

    assertEquals(Set.of(a, b, d), new HashSet<>(list.ofMap(0)));
    assertEquals(Set.of(b, c, d), new HashSet<>(list.ofReduce(1)));
    assertEquals(Set.of(0, 1), new HashSet<>(list.reduces()));
    assertTrue(list.remove(b), "from the middle of both lists");
    assertEquals(Set.of(a, d), new HashSet<>(list.ofMap(0)));
    assertEquals(Set.of(c, d), new HashSet<>(list.ofReduce(1)));
    assertEquals(4, before.size(), "a snapshot outlives later changes");
    assertTrue(list.remove(d));
    assertTrue(list.remove(a));
    assertEquals(List.of(1), list.reduces(), "a reduce without blocks is forgotten");
    assertTrue(list.remove(c));
    assertTrue(list.isEmpty());
    assertEquals(List.of(), list.snapshot());
    assertEquals(List.of(), list.ofMap(0));
  }

  @Test
  void aHeldBlockKeepsTheShufflesOneKey_notTheNameItCameWith() {
    ShuffleBlocks list = new ShuffleBlocks(SHUFFLE);
    StoredBlock a = block(3, 0, 7);
    list.add(a);

    assertSame(SHUFFLE, a.shuffle());
    assertSame(SHUFFLE.appId(), a.appId());
    assertEquals(new BlockId("app", 0, 3, 0, 7), a.id());
  }

  @Test
  void aBlockNotInTheList_isNotRemoved_andLeavesItWhole() {
    ShuffleBlocks list = new ShuffleBlocks(SHUFFLE);
    StoredBlock a = block(0, 0, 0);
    list.add(a);

    assertFalse(list.remove(block(1, 0, 0)));
    assertFalse(list.remove(block(0, 0, 0)), "another block of the same id");
    assertEquals(List.of(a), list.snapshot());
    list.clear();
    assertTrue(list.isEmpty());
    assertFalse(list.remove(a), "cleared blocks are unlinked");
  }

  @Test
  void randomAddsAndRemoves_leaveEachMapsAndReducesBlocksAsAReferenceHasThem() {
    Random random = new Random(42);
    ShuffleBlocks list = new ShuffleBlocks(SHUFFLE);
    List<StoredBlock> held = new ArrayList<>();
    for (int step = 0; step < 20_000; step++) {
      if (held.isEmpty() || random.nextInt(3) > 0) {
        StoredBlock b = block(random.nextInt(30), random.nextInt(2), random.nextInt(30));
        list.add(b);
        held.add(b);
      } else {
        assertTrue(list.remove(held.remove(random.nextInt(held.size()))));
      }
      if (step % 1000 == 0) {
        for (int k = 0; k < 30; k++) {
          int key = k;
          assertEquals(new HashSet<>(held.stream().filter(b -> b.mapId() == key).toList()),
              new HashSet<>(list.ofMap(key)), "map " + k);
          assertEquals(new HashSet<>(held.stream().filter(b -> b.reduceId() == key).toList()),
              new HashSet<>(list.ofReduce(key)), "reduce " + k);
        }
        assertEquals(held.size(), list.snapshot().size());
      }
    }
  }
}
