package org.scache.master;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.scache.common.ShuffleKey;
import org.scache.common.shuffle.RoundState;
import org.scache.common.shuffle.ShuffleRounds;

class IncompleteRoundsTest {
  private final IncompleteRounds rounds = new IncompleteRounds();

  @Test
  void firstWorkerToSpillFromARound_makesItIncompleteForEveryone_andTheLastToReloadMakesItComplete() {
    assertEquals(List.of(new ShuffleRounds("a", 0, List.of(2))),
        rounds.report("w1", List.of(new RoundState("a", 0, 2, true))));
    assertEquals(List.of(), rounds.report("w2", List.of(new RoundState("a", 0, 2, true))),
        "already incomplete: nothing to tell");
    assertEquals(List.of(), rounds.report("w1", List.of(new RoundState("a", 0, 2, false))));
    assertEquals(List.of(2), rounds.of(new ShuffleKey("a", 0)));
    assertEquals(List.of(new ShuffleRounds("a", 0, List.of())),
        rounds.report("w2", List.of(new RoundState("a", 0, 2, false))));
  }

  @Test
  void report_listsEveryIncompleteRoundOfTheShuffle_ascending() {
    rounds.report("w1", List.of(new RoundState("a", 0, 5, true)));
    List<ShuffleRounds> told = rounds.report("w2", List.of(new RoundState("a", 0, 1, true),
        new RoundState("a", 1, 0, true)));
    assertEquals(List.of(new ShuffleRounds("a", 0, List.of(1, 5)), new ShuffleRounds("a", 1, List.of(0))),
        told);
  }

  @Test
  void lostWorker_noLongerHoldsRoundsIncomplete() {
    rounds.report("w1", List.of(new RoundState("a", 0, 3, true)));
    assertEquals(List.of(new ShuffleRounds("a", 0, List.of())), rounds.dropWorker("w1"));
    assertEquals(List.of(), rounds.dropWorker("w1"));
  }

  @Test
  void forgottenApplication_hasNoIncompleteRounds() {
    rounds.report("w1", List.of(new RoundState("a", 0, 3, true), new RoundState("b", 0, 1, true)));
    rounds.forgetApplication("a");
    assertEquals(List.of(), rounds.of(new ShuffleKey("a", 0)));
    assertEquals(List.of(1), rounds.of(new ShuffleKey("b", 0)));
  }
}
