package org.scache.worker.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

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

class BlockTableTest {
  private static StoredBlock block(BlockId id) {
    return new StoredBlock(id, Unpooled.EMPTY_BUFFER, false, 0);
  }

  @Test
  void randomPutsAndRemoves_findWhatAHashMapFinds_throughGrowingAndShrinking() {
    BlockTable table = new BlockTable();
    Map<BlockId, StoredBlock> reference = new HashMap<>();
    Random random = new Random(11);
    for (int step = 0; step < 200_000; step++) {
      // few distinct ids, so that runs collide, grow to thousands of entries and shrink back
      int range = step < 100_000 ? 20_000 : 500;
      BlockId id = new BlockId("app" + random.nextInt(3), random.nextInt(4), random.nextInt(range), 0,
          random.nextInt(5));
      if (random.nextInt(3) == 0 || step >= 100_000) {
        assertSame(reference.remove(id), table.remove(id), "remove at step " + step);
      } else {
        StoredBlock b = block(id);
        assertSame(reference.put(id, b), table.put(b), "put at step " + step);
      }
      if (step % 997 == 0) {
        assertEquals(reference.size(), table.size());
        for (Map.Entry<BlockId, StoredBlock> e : reference.entrySet()) {
          assertSame(e.getValue(), table.get(e.getKey()));
        }
        Set<StoredBlock> seen = new HashSet<>();
        table.forEach(seen::add);
        assertEquals(new HashSet<>(reference.values()), seen);
      }
    }
    List<BlockId> left = new ArrayList<>(reference.keySet());
    left.forEach(id -> assertSame(reference.remove(id), table.remove(id)));
    assertEquals(0, table.size());
    assertEquals(null, table.get(new BlockId("app0", 0, 0, 0, 0)));
  }
}
