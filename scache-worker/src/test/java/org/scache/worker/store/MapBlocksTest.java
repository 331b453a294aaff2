package org.scache.worker.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.netty.buffer.Unpooled;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.scache.common.BlockId;
import org.scache.common.ShuffleKey;

class MapBlocksTest {
  @TempDir
  Path dir;

  private static final ShuffleKey SHUFFLE = new ShuffleKey("app", 0);

  private static ArrivingBlock block(int reduce, int size) {
    return ArrivingBlock.inMemory(new BlockId("app", 0, 5, 0, reduce), Unpooled.buffer(size).writerIndex(size),
        false, 0);
  }

  /**
   * Reduces put in increasing order (as a map's partitions are), then out of order and again after removal (as
   * copies and retried puts come): each reduce's block is found, the latest put of it, whichever way the attempt
   * finds them; and a trimmed attempt keeps them.
   */
  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void eachReducesLatestBlock_isFound_whetherTheyCameInOrderOrNot(boolean inOrder) {
    MapBlocks m = new MapBlocks(new ShuffleBlocks(SHUFFLE, false, false), 5, 0, 0);
    Map<Integer, Integer> slots = new HashMap<>();
    Random random = new Random(3);
    for (int r = 0; r < 300; r++) {
      int reduce = inOrder ? r * 2 : random.nextInt(1000);
      if (!slots.containsKey(reduce)) {
        slots.put(reduce, m.add(reduce, block(reduce, reduce % 7)));
      }
    }
    if (!inOrder) {
      int again = slots.keySet().iterator().next();
      m.unhold(slots.get(again));
      assertEquals(-1, m.heldSlotOf(again), "a block removed is not held");
      slots.put(again, m.add(again, block(again, again % 7)));
    }
    m.trim();

    assertEquals(slots.size(), m.held());
    for (Map.Entry<Integer, Integer> e : slots.entrySet()) {
      assertEquals(e.getValue(), m.heldSlotOf(e.getKey()), "reduce " + e.getKey());
      assertEquals(e.getKey() % 7, m.size(e.getValue()));
    }
    assertEquals(-1, m.slotOf(1001));
    if (inOrder) {
      assertEquals(-1, m.slotOf(3), "between two reduces put");
    }
  }

  /** A block's place in the reserve goes back when the store lets go of it and the last reader released it. */
  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void aBlocksReserve_goesBack_onlyWhenTheStoreAndEveryReaderLetGo(boolean readersFirst) throws Exception {
    MemoryPool pool = new MemoryPool(dir, "test", 1 << 20, 1 << 16, false);
    BlockBuffer data = new BlockBuffer(pool, pool.allocate(64).orElseThrow());
    data.writerIndex(64);
    long used = pool.usedBytes();
    MapBlocks m = new MapBlocks(new ShuffleBlocks(SHUFFLE, false, false), 5, 0, 0);
    StoredBlock b = new StoredBlock(m, m.add(0, ArrivingBlock.inMemory(new BlockId("app", 0, 5, 0, 0), data,
        false, 0)));
    var one = b.retainedData();
    var two = b.retainedData();

    if (readersFirst) {
      one.release();
      two.release();
      assertEquals(used, pool.usedBytes(), "the store holds it");
      assertFalse(b.release().isPresent());
    } else {
      assertFalse(b.release().isPresent());
      one.release();
      assertEquals(used, pool.usedBytes(), "a reader holds it");
      two.release();
    }
    assertEquals(0, pool.usedBytes(), "given back");
    pool.close();
  }
}
