package org.scache.master;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReduceBlocksTest {
  private final ReduceBlocks.PackedAttempts packed = new ReduceBlocks.PackedAttempts();
  private final ReduceBlocks blocks = new ReduceBlocks(packed, 4);

  private List<ShuffleState.BlockEntry> all() {
    List<ShuffleState.BlockEntry> out = new ArrayList<>();
    blocks.forEach(out::add);
    return out;
  }

  @Test
  void firstAndFurtherAttemptsOfAMap_areEachFound_andReplacedByTheirOwnReportOnly() {
    blocks.put(2, 0, 100, "w1");
    blocks.put(2, 1, 110, "w2");
    blocks.put(2, 0, 120, "w3");
    assertEquals(new ShuffleState.BlockEntry(2, 0, 120, "w3"), blocks.get(2, 0));
    assertEquals(new ShuffleState.BlockEntry(2, 1, 110, "w2"), blocks.get(2, 1));
    assertNull(blocks.get(2, 2));
    assertNull(blocks.get(3, 0));
    assertEquals(2, all().size());
  }

  @Test
  void mapsBeyondTheExpected_growTheArrays() {
    for (int m = 0; m < 100; m++) {
      blocks.put(m, 0, m, "w" + (m % 3));
    }
    assertEquals(100, all().size());
    assertEquals(new ShuffleState.BlockEntry(99, 0, 99, "w0"), blocks.get(99, 0));
  }

  @Test
  void remove_andRemoveIf_forgetExactlyTheBlocksAsked() {
    blocks.put(0, 0, 1, "w1");
    blocks.put(1, 0, 2, "w2");
    blocks.put(1, 1, 3, "w1");
    assertTrue(blocks.remove(1, 0));
    assertFalse(blocks.remove(1, 0));
    assertEquals(new ShuffleState.BlockEntry(1, 1, 3, "w1"), blocks.get(1, 1));
    blocks.removeIf(b -> b.holder().equals("w1"));
    assertTrue(all().isEmpty());
    blocks.put(1, 2, 4, "w2");
    assertEquals(new ShuffleState.BlockEntry(1, 2, 4, "w2"), blocks.get(1, 2), "a freed slot takes a new attempt");
  }

  @Test
  void blocksOfAnotherHolderOrOfTwoGibibytes_areFoundWithTheirHolderAndSize_andReplacedByThePackedHolder() {
    ReduceBlocks other = new ReduceBlocks(packed, 4);
    blocks.put(0, 0, 5, "w1");
    other.put(0, 0, 6, "w2");
    blocks.put(1, 0, 3L << 30, "w1");
    assertEquals(new ShuffleState.BlockEntry(0, 0, 6, "w2"), other.get(0, 0), "a put redirected to another worker");
    assertEquals("w1", blocks.holderOf(0, 0));
    assertEquals(3L << 30, blocks.sizeOf(1, 0));
    other.put(0, 0, 7, "w1");
    assertEquals(new ShuffleState.BlockEntry(0, 0, 7, "w1"), other.get(0, 0), "reported again by the packed holder");
    List<ShuffleState.BlockEntry> left = new ArrayList<>();
    other.forEach(left::add);
    assertEquals(List.of(new ShuffleState.BlockEntry(0, 0, 7, "w1")), left);
  }

  @Test
  void attemptRepackedOnceTheFirstIsGone_isFoundAsBefore_andItsLaterReportsArePacked() {
    ReduceBlocks other = new ReduceBlocks(packed, 4);
    blocks.put(1, 0, 10, "w1");
    other.put(1, 0, 11, "w1");
    blocks.put(1, 1, 20, "w2");
    other.put(1, 1, 21, "w2");
    blocks.remove(1, 0);
    other.remove(1, 0);
    packed.repack(1, 1, packed.holders().indexOf("w2"));
    blocks.repacked(1, 1);
    other.repacked(1, 1);
    assertEquals(new ShuffleState.BlockEntry(1, 1, 20, "w2"), blocks.get(1, 1));
    assertEquals(21, other.sizeOf(1, 1));
    assertNull(blocks.get(1, 0));
    other.put(1, 1, 22, "w2");
    assertEquals(new ShuffleState.BlockEntry(1, 1, 22, "w2"), other.get(1, 1));
    assertEquals(List.of(new ShuffleState.BlockEntry(1, 1, 20, "w2")), all());
  }
}
