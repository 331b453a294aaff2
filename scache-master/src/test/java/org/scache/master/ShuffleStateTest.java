package org.scache.master;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.scache.common.BlockId;
import org.scache.common.ScacheException;
import org.scache.common.ShuffleKey;
import org.scache.common.protocol.Status;
import org.scache.common.shuffle.PartitionerKind;
import org.scache.common.shuffle.ShuffleSpec;

class ShuffleStateTest {
  private final ShuffleState state = new ShuffleState(new ShuffleKey("app", 0));

  @Test
  void finalBlocks_listOnlyTheFinalAttemptOfFinishedMaps() {
    state.report(new BlockId("app", 0, 0, 0, 0), 10, "w1");
    state.report(new BlockId("app", 0, 0, 1, 0), 11, "w2");
    state.report(new BlockId("app", 0, 1, 0, 0), 12, "w1");
    state.mapFinished(0, 1);
    List<ShuffleState.BlockEntry> blocks = state.finalBlocks(0);
    assertEquals(List.of(new ShuffleState.BlockEntry(0, 1, 11, "w2")), blocks);
    assertEquals(1, state.finishedMaps());
  }

  @Test
  void droppedBlock_ofTheFinalAttempt_marksItsMapLost_untilReRun() {
    state.report(new BlockId("app", 0, 0, 0, 0), 10, "w1");
    state.report(new BlockId("app", 0, 0, 0, 1), 10, "w1");
    state.mapFinished(0, 0);
    state.dropBlock(new BlockId("app", 0, 0, 0, 1), "w2");
    assertTrue(state.lostMaps().isEmpty(), "another worker cannot lose w1's block");
    state.dropBlock(new BlockId("app", 0, 0, 0, 1), "w1");
    assertEquals(List.of(0), List.copyOf(state.lostMaps()));
    assertTrue(state.finalBlocks(1).isEmpty());
    state.report(new BlockId("app", 0, 0, 1, 1), 10, "w2");
    state.mapFinished(0, 1);
    assertTrue(state.lostMaps().isEmpty(), "the re-run replaces the lost output");
  }

  @Test
  void droppedHolder_marksItsFinishedMapsLost_untilReRunOrReReported() {
    state.report(new BlockId("app", 0, 0, 0, 0), 10, "w1");
    state.report(new BlockId("app", 0, 1, 0, 0), 10, "w2");
    state.mapFinished(0, 0);
    state.mapFinished(1, 0);
    state.dropHolder("w1");
    assertEquals(List.of(0), List.copyOf(state.lostMaps()));
    state.report(new BlockId("app", 0, 0, 0, 0), 10, "w1");
    assertTrue(state.lostMaps().isEmpty(), "re-reported by the worker that came back");
    state.dropHolder("w2");
    state.report(new BlockId("app", 0, 1, 1, 0), 10, "w3");
    state.mapFinished(1, 1);
    assertTrue(state.lostMaps().isEmpty(), "re-run by the framework");
  }

  @Test
  void registerAgain_withOtherShape_isAConflict() {
    state.register(new ShuffleSpec("app", 0, 2, 3, PartitionerKind.HASH, 0));
    state.register(new ShuffleSpec("app", 0, 2, 3, PartitionerKind.HASH, 5));
    ScacheException e = assertThrows(ScacheException.class,
        () -> state.register(new ShuffleSpec("app", 0, 2, 4, PartitionerKind.HASH, 0)));
    assertEquals(Status.SHUFFLE_CONFLICT, e.status());
  }
}
