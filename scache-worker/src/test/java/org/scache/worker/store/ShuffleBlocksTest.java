package org.scache.worker.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.scache.common.BlockId;
import org.scache.common.ShuffleKey;

class ShuffleBlocksTest {
  private static final ShuffleKey SHUFFLE = new ShuffleKey("app", 0);

  private static ArrivingBlock block(int map, int attempt, int reduce) {
    // the application's name as a put decoded from the wire brings it: a copy of its own
    return ArrivingBlock.inMemory(new BlockId(new String("app"), 0, map, attempt, reduce),
        Unpooled.buffer(1).writerIndex(1), false, 0);
  }

  private static ShuffleBlocks shuffle() {
    return new ShuffleBlocks(SHUFFLE, false, false);
  }

  @Test
  void blocksAreFoundByMapAndByReduce_andRemovedFromAnywhere() {
    ShuffleBlocks list = shuffle();
    StoredBlock a = list.add(block(0, 0, 0));
    StoredBlock b = list.add(block(0, 0, 1));
    StoredBlock c = list.add(block(1, 0, 1));
    StoredBlock d = list.add(block(0, 1, 1));
    List<StoredBlock> before = list.snapshot();

    assertEquals(Set.of(a, b, d), new HashSet<>(list.ofMap(0)));
    assertEquals(Set.of(b, c, d), new HashSet<>(list.ofReduce(1)));
    assertEquals(Set.of(0, 1), new HashSet<>(list.reduces()));
    assertEquals(c, list.find(1, 0, 1));
    assertTrue(list.remove(b), "from the middle of both lists");
    assertNull(list.find(0, 0, 1));
    assertEquals(Set.of(a, d), new HashSet<>(list.ofMap(0)));
    assertEquals(Set.of(c, d), new HashSet<>(list.ofReduce(1)));
    assertEquals(4, before.size(), "a snapshot outlives later changes");
    assertTrue(list.remove(d));
    assertNull(list.mapAttempt(0, 1), "a map attempt whose blocks all went is forgotten");
    assertTrue(list.remove(a));
    assertEquals(List.of(1), list.reduces(), "a reduce without blocks is forgotten");
    assertTrue(list.remove(c));
    assertTrue(list.isEmpty());
    assertEquals(List.of(), list.snapshot());
    assertEquals(List.of(), list.ofMap(0));
  }

  @Test
  void aHeldBlockKeepsTheShufflesOneKey_notTheNameItCameWith() {
    ShuffleBlocks list = shuffle();
    StoredBlock a = list.add(block(3, 0, 7));

    assertSame(SHUFFLE, a.shuffle());
    assertSame(SHUFFLE.appId(), a.appId());
    assertEquals(new BlockId("app", 0, 3, 0, 7), a.id());
  }

  @Test
  void aBlockRemoved_isNotRemovedAgain_norIsTheBlockPutAfterItUnderItsId() {
    ShuffleBlocks list = shuffle();
    StoredBlock a = list.add(block(0, 0, 0));
    list.add(block(0, 0, 1));
    assertTrue(list.remove(a));
    StoredBlock again = list.add(block(0, 0, 0));

    assertFalse(list.remove(a), "the block looked up before is not the one put since");
    assertTrue(again.held());
    assertEquals(again, list.find(0, 0, 0));
    assertFalse(again.equals(a));
    assertFalse(new ShuffleBlocks(SHUFFLE, false, false).remove(again), "another shuffle's");
  }

  @Test
  void randomAddsAndRemoves_leaveEachMapsAndReducesBlocksAsAReferenceHasThem() {
    Random random = new Random(42);
    ShuffleBlocks list = shuffle();
    Map<BlockId, StoredBlock> held = new HashMap<>();
    List<StoredBlock> order = new ArrayList<>();
    for (int step = 0; step < 20_000; step++) {
      if (held.isEmpty() || random.nextInt(3) > 0) {
        ArrivingBlock b = block(random.nextInt(30), random.nextInt(2), random.nextInt(30));
        if (!held.containsKey(b.id())) {
          StoredBlock s = list.add(b);
          held.put(s.id(), s);
          order.add(s);
        }
      } else {
        StoredBlock b = order.remove(random.nextInt(order.size()));
        held.remove(b.id());
        assertTrue(list.remove(b));
      }
      if (step % 500 == 0) {
        for (int k = 0; k < 30; k++) {
          int key = k;
          assertEquals(new HashSet<>(order.stream().filter(b -> b.mapId() == key).toList()),
              new HashSet<>(list.ofMap(key)), "map " + k);
          assertEquals(new HashSet<>(order.stream().filter(b -> b.reduceId() == key).toList()),
              new HashSet<>(list.ofReduce(key)), "reduce " + k);
        }
        for (Map.Entry<BlockId, StoredBlock> e : held.entrySet()) {
          BlockId id = e.getKey();
          assertEquals(e.getValue(), list.find(id.mapId(), id.attempt(), id.reduceId()));
        }
        assertEquals(held.size(), list.snapshot().size());
      }
    }
  }
}
