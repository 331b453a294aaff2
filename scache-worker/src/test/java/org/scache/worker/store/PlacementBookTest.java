package org.scache.worker.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.scache.common.ShuffleKey;
import org.scache.common.WorkerInfo;
import org.scache.common.shuffle.ReduceAssignment;
import org.scache.common.shuffle.ReduceMove;
import org.scache.common.shuffle.ShufflePlacement;

class PlacementBookTest {
  private static final WorkerInfo W1 = new WorkerInfo("w1", "h1", 1);
  private static final WorkerInfo W2 = new WorkerInfo("w2", "h2", 2);
  private static final WorkerInfo W3 = new WorkerInfo("w3", "h3", 3);
  private static final ShuffleKey FIRST = new ShuffleKey("app", 0);
  private static final ShuffleKey SECOND = new ShuffleKey("app", 1);

  private final PlacementBook book = new PlacementBook();

  private static ShufflePlacement placement(ShuffleKey s, ReduceAssignment... a) {
    return new ShufflePlacement(s.appId(), s.shuffleId(), "test", List.of(a));
  }

  @Test
  void aPlacement_givesEachReduceItsRound_andItsWorkerFirstAmongTheCandidates() {
    book.scheduled(placement(FIRST, new ReduceAssignment(0, W1, 0, 10), new ReduceAssignment(1, W2, 1, 10),
        new ReduceAssignment(2, W3, 0, 10)), 500, List.of());

    assertEquals(Optional.of(new PlacementBook.Placement(500, 1)), book.placement(FIRST, 1));
    assertEquals(List.of(W2, W1, W3), book.candidates(FIRST, 1, "none"));
    assertEquals(List.of(W1, W3), book.candidates(FIRST, 1, "w2"), "never the asking worker");
    assertTrue(book.isPlaced(FIRST));
    assertFalse(book.isPlaced(SECOND));
    assertEquals(Optional.empty(), book.placement(SECOND, 0));
  }

  @Test
  void aLaterShufflesPlacement_movesAnEarlierShufflesReduce_toItsNewWorkerAndRound() {
    book.scheduled(placement(FIRST, new ReduceAssignment(0, W1, 0, 10), new ReduceAssignment(1, W2, 0, 10)), 500,
        List.of());

    book.scheduled(placement(SECOND, new ReduceAssignment(0, W1, 0, 10), new ReduceAssignment(1, W3, 2, 10)), 600,
        List.of(new ReduceMove(FIRST.shuffleId(), 1, W2, W3)));

    assertEquals(Optional.of(new PlacementBook.Placement(500, 2)), book.placement(FIRST, 1));
    assertEquals(W3, book.candidates(FIRST, 1, "none").get(0));
  }

  @Test
  void aForgottenShuffleOrApplication_hasNoPlacementLeft() {
    book.scheduled(placement(FIRST, new ReduceAssignment(0, W1, 0, 10)), 500, List.of());
    book.scheduled(placement(new ShuffleKey("other", 0), new ReduceAssignment(0, W1, 0, 10)), 500, List.of());

    book.forgetShuffle(FIRST);
    book.forgetApplication("other");

    assertFalse(book.isPlaced(FIRST));
    assertFalse(book.isPlaced(new ShuffleKey("other", 0)));
    assertEquals(List.of(), book.candidates(FIRST, 0, "none"));
  }
}
