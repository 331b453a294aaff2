package org.scache.master;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
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

  @Test
  void randomReportsEndsAndDrops_keepEveryBlockAsAPlainMapOfBlocksWould() {
    Random random = new Random(5);
    // (reduce, map, attempt) -> block, and the attempts each map reported, as the state should keep them
    Map<List<Integer>, ShuffleState.BlockEntry> reference = new HashMap<>();
    for (int step = 0; step < 20_000; step++) {
      int op = random.nextInt(10);
      int map = random.nextInt(8);
      int attempt = random.nextInt(3);
      int reduce = random.nextInt(4);
      String holder = "w" + random.nextInt(4);
      if (op < 6) {
        long size = random.nextInt(20) == 0 ? (3L << 30) + random.nextInt(5) : random.nextInt(1000);
        state.report(new BlockId("app", 0, map, attempt, reduce), size, holder);
        reference.put(List.of(reduce, map, attempt), new ShuffleState.BlockEntry(map, attempt, size, holder));
      } else if (op < 8) {
        state.mapFinished(map, attempt);
        reference.keySet().removeIf(k -> k.get(1) == map && k.get(2) != attempt);
      } else if (op == 8) {
        state.dropBlock(new BlockId("app", 0, map, attempt, reduce), holder);
        ShuffleState.BlockEntry held = reference.get(List.of(reduce, map, attempt));
        if (held != null && held.holder().equals(holder)) {
          reference.remove(List.of(reduce, map, attempt));
        }
      } else {
        state.dropHolder(holder);
        reference.values().removeIf(b -> b.holder().equals(holder));
      }
      for (int r = 0; r < 4; r++) {
        for (int m = 0; m < 8; m++) {
          Set<ShuffleState.BlockEntry> expected = new HashSet<>();
          for (int a = 0; a < 3; a++) {
            ShuffleState.BlockEntry b = reference.get(List.of(r, m, a));
            if (b != null) {
              expected.add(b);
            }
          }
          assertEquals(expected, new HashSet<>(state.blocksOf(r, m)),
              "reduce " + r + ", map " + m + " after step " + step);
        }
      }
    }
  }
}
