package org.scache.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class OwnShuffleBlocksTest {
  /** What the map statuses say each finished shuffle put; a shuffle not in it has maps still to run. */
  private final Map<Integer, Long> finished = new HashMap<>();
  private int asked;
  private final OwnShuffleBlocks own = new OwnShuffleBlocks((shuffleId, numReduces) -> {
    asked++;
    Long put = finished.get(shuffleId);
    return put == null ? OptionalLong.empty() : OptionalLong.of(put);
  });

  @Test
  void aShuffleWhoseMapsRun_countsEveryBlockItMayPut() {
    own.add(0, 4, 40);
    own.add(1, 2, 10);
    assertEquals(160 + 20, own.total());
  }

  @Test
  void aShuffleWhoseMapsAllFinished_countsTheBlocksTheyPut_notItsEmptyPartitions() {
    own.add(0, 4, 40);
    own.add(1, 2, 10);
    finished.put(0, 8L);
    assertEquals(8 + 20, own.total());
    finished.put(0, 9_999L);
    assertEquals(8 + 20, own.total(), "counted once: a finished shuffle's blocks stay what they were");
  }

  @Test
  void aFinishedShuffleIsNotAskedAgain_andAnUnregisteredOneNoLongerCounts() {
    own.add(0, 4, 40);
    finished.put(0, 8L);
    own.total();
    own.total();
    assertEquals(1, asked);
    own.remove(0);
    assertEquals(0, own.total());
    assertEquals(0, own.shuffles());
  }
}
