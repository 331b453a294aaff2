package org.scache.master;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.scache.common.BlockId;
import org.scache.common.ShuffleKey;
import org.scache.common.shuffle.PartitionerKind;
import org.scache.common.shuffle.ShuffleSpec;
import org.scache.master.predict.LinearRegressionPredictor;
import org.scache.master.predict.ObservedMapOutput;

class FinalOutputsTest {
  private static final int MAPS = 5;
  private static final int REDUCES = 3;

  /**
   * Map 0 on w1; map 1 retried, its final attempt on w2; map 2 finished, then lost with w3; map 3 finished having
   * stored nothing; map 4 still running.
   */
  private static ShuffleState shuffle() {
    ShuffleState s = new ShuffleState(new ShuffleKey("app", 0));
    s.register(new ShuffleSpec("app", 0, MAPS, REDUCES, PartitionerKind.HASH, 0));
    for (int r = 0; r < REDUCES; r++) {
      s.report(new BlockId("app", 0, 0, 0, r), 10 + r, "w1");
      s.report(new BlockId("app", 0, 1, 0, r), 500, "w1");
      s.report(new BlockId("app", 0, 1, 1, r), 20 + 2 * r, "w2");
      s.report(new BlockId("app", 0, 2, 0, r), 30, "w3");
      s.report(new BlockId("app", 0, 4, 0, r), 40, "w1");
    }
    s.mapFinished(0, 0);
    s.mapFinished(1, 1);
    s.mapFinished(2, 0);
    s.mapFinished(3, 0);
    s.dropHolder("w3");
    return s;
  }

  @Test
  void readsTheFinalAttemptsOfFinishedMapsThatStoredBlocks_leavingLostRunningAndEmptyMapsOut() {
    FinalOutputs out = shuffle().finalOutputs(REDUCES);

    assertArrayEquals(new int[] {0, 1}, out.maps());
    assertEquals(Optional.of("w2"), out.holder(1));
    assertEquals(Optional.empty(), out.holder(2), "lost with its worker");
    assertEquals(Optional.empty(), out.holder(3), "stored nothing");
    assertEquals(24, out.blockBytes(1, 2), "the final attempt's block, not the first attempt's");
    assertEquals(0, out.blockBytes(4, 0), "a running map's blocks are not its output yet");
    assertArrayEquals(new long[] {30, 33, 36}, out.bytesByReduce());
    long[][] held = out.bytesByReduceAndWorker(Map.of("w1", 0, "w2", 1));
    assertArrayEquals(new long[] {10, 20}, held[0]);
    assertArrayEquals(new long[] {12, 24}, held[2]);
  }

  @Test
  void regressionOnTheOutputsReadInPlace_predictsAsOnTheirCopies() {
    FinalOutputs out = shuffle().finalOutputs(REDUCES);
    long[] inputs = {100, 200, 300, 400, 500};
    List<ObservedMapOutput> copies = new ArrayList<>();
    for (int map : out.maps()) {
      long[] blocks = new long[REDUCES];
      for (int r = 0; r < REDUCES; r++) {
        blocks[r] = out.blockBytes(map, r);
      }
      copies.add(new ObservedMapOutput(map, out.host(map), blocks));
    }
    LinearRegressionPredictor predictor = new LinearRegressionPredictor(REDUCES);

    assertEquals(predictor.predict(inputs, copies), predictor.predict(inputs, out));
  }
}
