package org.scache.worker.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.netty.buffer.Unpooled;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.scache.common.BlockId;

class BlockHeadsTest {
  @Test
  void randomPutsAndRemoves_throughGrowingAndShrinking_findWhatAHashMapFinds() {
    Random random = new Random(5);
    BlockHeads heads = new BlockHeads();
    Map<Integer, StoredBlock> reference = new HashMap<>();
    for (int step = 0; step < 200_000; step++) {
      // phases of mostly puts, then mostly removes, over keys that collide in a small table
      boolean growing = (step / 20_000) % 2 == 0;
      int key = random.nextInt(5_000) * (random.nextBoolean() ? 1 : 64);
      if (random.nextInt(10) < (growing ? 7 : 3)) {
        StoredBlock b = new StoredBlock(new BlockId("app", 0, key, 0, 0), Unpooled.EMPTY_BUFFER, false, 0);
        assertSame(reference.put(key, b), heads.put(key, b));
      } else {
        reference.remove(key);
        heads.remove(key);
      }
      if (step % 10_000 == 0) {
        assertEquals(reference.size(), heads.size());
        assertEquals(reference.keySet(), new HashSet<>(heads.keys()));
        for (Map.Entry<Integer, StoredBlock> e : reference.entrySet()) {
          assertSame(e.getValue(), heads.get(e.getKey()));
        }
        assertEquals(null, heads.get(-1));
      }
    }
  }
}
