package org.scache.worker.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.scache.common.BlockId;

class ShuffleBlocksTest {
  private static StoredBlock block(int map) {
    return new StoredBlock(new BlockId("app", 0, map, 0, 0), Unpooled.buffer(1).writerIndex(1), false, 0);
  }

  @Test
  void blocksAreLinkedAndUnlinkedFromAnywhere_andASnapshotOutlivesLaterChanges() {
    ShuffleBlocks list = new ShuffleBlocks();
    StoredBlock a = block(0);
    StoredBlock b = block(1);
    StoredBlock c = block(2);
    list.add(a);
    list.add(b);
    list.add(c);
    List<StoredBlock> before = list.snapshot();

    assertTrue(list.remove(b), "from the middle");
    assertEquals(List.of(c, a), list.snapshot());
    assertEquals(List.of(c, b, a), before);
    assertTrue(list.remove(c), "the head");
    assertTrue(list.remove(a), "the last");
    assertTrue(list.isEmpty());
    assertEquals(List.of(), list.snapshot());
  }

  @Test
  void aBlockNotInTheList_isNotRemoved_andLeavesItWhole() {
    ShuffleBlocks list = new ShuffleBlocks();
    StoredBlock a = block(0);
    list.add(a);

    assertFalse(list.remove(block(1)));
    assertEquals(List.of(a), list.snapshot());
    list.clear();
    assertTrue(list.isEmpty());
    assertFalse(list.remove(a), "cleared blocks are unlinked");
  }
}
