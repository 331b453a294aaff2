package org.scache.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.scache.common.protocol.BlockRoom;

class ShuffleRoomTest {
  @Test
  void aShuffleThatFitsTheRoomLeftForOneOwner_hasNoProblem() {
    assertEquals(Optional.empty(), ShuffleRoom.problem(new BlockRoom(600, 900, 3, 0, 0), 20, 30));
  }

  @Test
  void aShuffleWiderThanTheRoom_saysItsBlocksTheRoomAndTheLimitsThatSetIt() {
    String why = ShuffleRoom.problem(new BlockRoom(500, 900, 3, 0, 0), 20, 30).orElseThrow();
    assertEquals("its 20 maps × 30 reduces put 600 blocks, and the 3 live workers hold 500 more for one user "
        + "(scache.worker.blocks.max, scache.worker.blocks.application.share)", why);
  }

  @Test
  void whenTheMasterBookedBlocksForRegisteredShuffles_theProblemSaysHowMany() {
    String why = ShuffleRoom.problem(new BlockRoom(100, 100, 3, 0, 800), 20, 30).orElseThrow();
    assertTrue(why.endsWith("; the shuffles registered already have 800 blocks still to put, which the master books"),
        why);
  }

  @Test
  void theRoomLeftAfterTheJobsEarlierShuffles_isWhatTheNextOneMustFitIn() {
    BlockRoom room = new BlockRoom(1_000, 2_000, 2, 0, 0);
    assertEquals(Optional.empty(), ShuffleRoom.problem(room, 1_000 - 400, 20, 30));
    assertTrue(ShuffleRoom.problem(room, 1_000 - 600, 20, 30).isPresent());
  }

  @Test
  void noWorkerReportedItsLimits_thePutsFindOut() {
    assertEquals(Optional.empty(), ShuffleRoom.problem(new BlockRoom(0, 0, 0, 2, 0), 20, 30));
  }
}
