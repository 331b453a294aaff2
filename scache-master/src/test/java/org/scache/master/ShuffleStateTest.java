package org.scache.master;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
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
import org.scache.master.predict.HeldBytes;
import org.scache.master.predict.LinearRegressionPredictor;
import org.scache.master.predict.ObservedMapOutput;
import org.scache.master.predict.ReducePrediction;

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
  void finishedMaps_leaveTheirBytesAsEachHoldersSums_andLocatedSizesAreTheirMeansThere() {
    state.register(new ShuffleSpec("app", 0, 3, 2, PartitionerKind.HASH, 0));
    long[][] sizes = {{10, 100}, {30, 300}, {7, 0}};
    String[] holders = {"w1", "w1", "w2"};
    for (int m = 0; m < 3; m++) {
      for (int r = 0; r < 2; r++) {
        if (sizes[m][r] > 0) {
          state.report(new BlockId("app", 0, m, 0, r), sizes[m][r], holders[m]);
        }
      }
      state.mapFinished(m, 0);
    }
    HeldBytes held = state.held();
    assertEquals(40, held.held(held.find("w1"), 0));
    assertEquals(400, held.held(held.find("w1"), 1));
    assertEquals(7, held.held(held.find("w2"), 0));
    assertEquals(0, held.held(held.find("w2"), 1), "map 2 put no block of reduce 1");
    assertEquals(List.of(new ShuffleState.BlockEntry(0, 0, 20, "w1"), new ShuffleState.BlockEntry(1, 0, 20, "w1"),
        new ShuffleState.BlockEntry(2, 0, 7, "w2")), state.finalBlocks(0));
    assertEquals(List.of(new ShuffleState.BlockEntry(0, 0, 200, "w1"), new ShuffleState.BlockEntry(1, 0, 200, "w1")),
        state.finalBlocks(1));
  }

  @Test
  void blockPutOnAnotherWorker_isLocatedThereWithItsOwnSize_andALateBlockIsAddedAtOnce() {
    state.register(new ShuffleSpec("app", 0, 1, 3, PartitionerKind.HASH, 0));
    state.report(new BlockId("app", 0, 0, 0, 0), 10, "w1");
    state.report(new BlockId("app", 0, 0, 0, 1), 3L << 31, "w2");
    state.mapFinished(0, 0);
    state.report(new BlockId("app", 0, 0, 0, 2), 5, "w1");
    assertEquals(List.of(new ShuffleState.BlockEntry(0, 0, 3L << 31, "w2")), state.finalBlocks(1));
    assertEquals(List.of(new ShuffleState.BlockEntry(0, 0, 5, "w1")), state.finalBlocks(2));
    assertEquals(5, state.held().held(state.held().find("w1"), 2));
    assertEquals(5.0, state.regressionSums().orElseThrow().fit(2).predict(1), 1e-9, "the late block is observed");
  }

  @Test
  void blocksReReportedAfterTheirHolderWasLost_areHeldAgain_butObservedOnce() {
    state.register(new ShuffleSpec("app", 0, 2, 1, PartitionerKind.HASH, 0, List.of(10L, 20L), ShuffleSpec.NO_STAGE,
        java.util.Optional.empty()));
    state.report(new BlockId("app", 0, 0, 0, 0), 100, "w1");
    state.mapFinished(0, 0);
    state.report(new BlockId("app", 0, 1, 0, 0), 200, "w2");
    state.mapFinished(1, 0);
    double before = state.regressionSums().orElseThrow().fit(0).predict(30);
    state.dropHolder("w1");
    assertEquals(0, state.held().held(state.held().find("w1"), 0));
    state.report(new BlockId("app", 0, 0, 0, 0), 100, "w1");
    assertTrue(state.lostMaps().isEmpty());
    assertEquals(100, state.held().held(state.held().find("w1"), 0));
    assertEquals(before, state.regressionSums().orElseThrow().fit(0).predict(30), 1e-9);
    assertEquals(300, before, 1e-9);
  }

  @Test
  void mapEndedAgainByAnotherAttempt_movesItsBytesToTheNewHolder() {
    state.register(new ShuffleSpec("app", 0, 1, 1, PartitionerKind.HASH, 0));
    state.report(new BlockId("app", 0, 0, 0, 0), 10, "w1");
    state.mapFinished(0, 0);
    state.report(new BlockId("app", 0, 0, 1, 0), 12, "w2");
    assertEquals(List.of(new ShuffleState.BlockEntry(0, 0, 10, "w1")), state.finalBlocks(0),
        "a running attempt is not the map's output");
    state.mapFinished(0, 1);
    assertEquals(0, state.held().held(state.held().find("w1"), 0));
    assertEquals(12, state.held().held(state.held().find("w2"), 0));
    assertEquals(List.of(new ShuffleState.BlockEntry(0, 1, 12, "w2")), state.finalBlocks(0));
  }

  @Test
  void regressionFromTheStateSums_predictsAsOnCopiesOfTheStoredBlocks() {
    int maps = 5;
    int reduces = 3;
    state.register(new ShuffleSpec("app", 0, maps, reduces, PartitionerKind.HASH, 0,
        List.of(100L, 200L, 300L, 400L, 500L), ShuffleSpec.NO_STAGE, java.util.Optional.empty()));
    long[] inputs = {100, 200, 300, 400, 500};
    List<ObservedMapOutput> copies = new ArrayList<>();
    Random random = new Random(3);
    for (int m = 0; m < 3; m++) {
      long[] blocks = new long[reduces];
      for (int r = 0; r < reduces; r++) {
        blocks[r] = random.nextInt(1000);
        state.report(new BlockId("app", 0, m, 0, r), blocks[r], "w" + m % 2);
      }
      state.report(new BlockId("app", 0, m, 1, 0), 999, "w2"); // a speculative copy that did not win
      state.mapFinished(m, 0);
      copies.add(new ObservedMapOutput(m, "w" + m % 2, blocks));
    }
    state.report(new BlockId("app", 0, 4, 0, 0), 5000, "w1"); // map 4 still running
    LinearRegressionPredictor predictor = new LinearRegressionPredictor(reduces);
    List<ReducePrediction> expected = predictor.predict(inputs, copies);
    List<ReducePrediction> got = predictor.predict(state.mapInputs(), state.regressionSums().orElseThrow(),
        state.held(), state.storedMaps(maps));
    for (int r = 0; r < reduces; r++) {
      assertEquals(expected.get(r).size(), got.get(r).size(), 1e-6, "reduce " + r);
      assertEquals(expected.get(r).prob(), got.get(r).prob(), 1e-9, "reduce " + r);
      assertEquals(expected.get(r).hostId(), got.get(r).hostId(), "reduce " + r);
    }
  }

  @Test
  void randomReportsEndsAndDrops_keepEveryBlockAndItsHolderAsAPlainMapOfBlocksWould() {
    Random random = new Random(5);
    // (reduce, map, attempt) -> block, as the state should keep them
    Map<List<Integer>, ShuffleState.BlockEntry> reference = new HashMap<>();
    Map<Integer, Integer> finals = new HashMap<>();
    for (int step = 0; step < 20_000; step++) {
      int op = random.nextInt(10);
      int map = random.nextInt(8);
      int attempt = random.nextInt(3);
      int reduce = random.nextInt(4);
      String holder = "w" + random.nextInt(4);
      if (op < 6) {
        long size = random.nextInt(20) == 0 ? (3L << 30) + random.nextInt(5) : random.nextInt(1000);
        state.report(new BlockId("app", 0, map, attempt, reduce), size, holder);
        ShuffleState.BlockEntry before = reference.get(List.of(reduce, map, attempt));
        boolean sameFinalBlock = before != null && before.holder().equals(holder)
            && Integer.valueOf(attempt).equals(finals.get(map));
        if (!sameFinalBlock) {
          reference.put(List.of(reduce, map, attempt), new ShuffleState.BlockEntry(map, attempt, size, holder));
        }
      } else if (op < 8) {
        state.mapFinished(map, attempt);
        finals.put(map, attempt);
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
        Map<String, Integer> finalCount = new HashMap<>();
        for (int m = 0; m < 8; m++) {
          Set<ShuffleState.BlockEntry> expected = new HashSet<>();
          for (int a = 0; a < 3; a++) {
            ShuffleState.BlockEntry b = reference.get(List.of(r, m, a));
            if (b != null) {
              boolean isFinal = Integer.valueOf(a).equals(finals.get(m));
              expected.add(isFinal ? withoutSize(b) : b);
              if (isFinal) {
                finalCount.merge(b.holder(), 1, Integer::sum);
              }
            }
          }
          Set<ShuffleState.BlockEntry> kept = new HashSet<>();
          for (ShuffleState.BlockEntry b : state.blocksOf(r, m)) {
            kept.add(state.finalAttempt(m).orElse(-1) == b.attempt() ? withoutSize(b) : b);
          }
          assertEquals(expected, kept, "reduce " + r + ", map " + m + " after step " + step);
        }
        Map<String, Integer> located = new HashMap<>();
        Map<String, Long> locatedBytes = new HashMap<>();
        for (ShuffleState.BlockEntry b : state.finalBlocks(r)) {
          located.merge(b.holder(), 1, Integer::sum);
          locatedBytes.merge(b.holder(), b.size(), Long::sum);
          assertTrue(state.blocksOf(r, b.mapId()).contains(b), "map " + b.mapId() + " located alone as in its reduce");
        }
        assertEquals(finalCount, located, "final blocks of reduce " + r + " by holder after step " + step);
        for (Map.Entry<String, Long> held : locatedBytes.entrySet()) {
          int index = state.held().find(held.getKey());
          assertEquals(state.held().held(index, r), held.getValue(),
              "located sizes of reduce " + r + " on " + held.getKey() + " add up to its bytes, after step " + step);
        }
      }
    }
  }

  private static ShuffleState.BlockEntry withoutSize(ShuffleState.BlockEntry b) {
    return new ShuffleState.BlockEntry(b.mapId(), b.attempt(), -1, b.holder());
  }
}
