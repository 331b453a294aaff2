package org.scache.master;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.scache.common.ScacheException;
import org.scache.common.ShuffleKey;
import org.scache.common.protocol.Ack;
import org.scache.common.protocol.Message;
import org.scache.common.protocol.Status;

class PlacementWaitersTest {
  private static final ShuffleKey A = new ShuffleKey("app", 0);
  private static final ShuffleKey B = new ShuffleKey("app", 1);

  /** What each shuffle's ask is answered with now; absent: not final yet; a null answer: the shuffle is gone. */
  private final Map<ShuffleKey, Message> finalNow = new HashMap<>();
  private final PlacementWaiters waiters = new PlacementWaiters(key -> {
    if (finalNow.containsKey(key) && finalNow.get(key) == null) {
      throw new ScacheException(Status.UNKNOWN_SHUFFLE, key + " is gone");
    }
    return Optional.ofNullable(finalNow.get(key));
  });

  private static Status statusOf(CompletableFuture<Message> f) {
    return ScacheException.from(assertThrows(Exception.class, f::join)).status();
  }

  @Test
  void anAskForAFinalPlacement_isAnsweredAtOnce() {
    finalNow.put(A, new Ack());
    assertEquals(new Ack(), waiters.await(A, 10_000).getNow(null));
    assertEquals(0, waiters.waiting());
  }

  @Test
  void asksWait_untilTheirShufflesPlacementIsFinal_eachShuffleOnItsOwn() {
    CompletableFuture<Message> first = waiters.await(A, 10_000);
    CompletableFuture<Message> second = waiters.await(A, 10_000);
    CompletableFuture<Message> other = waiters.await(B, 10_000);
    waiters.settleAll();
    assertFalse(first.isDone());

    finalNow.put(A, new Ack());
    waiters.settleAll();

    assertEquals(new Ack(), first.join());
    assertEquals(new Ack(), second.join());
    assertFalse(other.isDone());
    assertEquals(1, waiters.waiting());
  }

  @Test
  void anAskForAShuffleThatGoes_failsWithItsError() {
    CompletableFuture<Message> ask = waiters.await(A, 10_000);
    finalNow.put(A, null);
    waiters.settleAll();
    assertEquals(Status.UNKNOWN_SHUFFLE, statusOf(ask));
    assertEquals(0, waiters.waiting());
  }

  @Test
  void anAskWhosePlacementIsNotFinalWithinItsWait_isNotReady_andForgotten() throws InterruptedException {
    CompletableFuture<Message> ask = waiters.await(A, 20);
    assertEquals(Status.NOT_READY, statusOf(ask));
    assertTrue(ask.isCompletedExceptionally());
    // forgotten by the thread that completed it, right after
    for (int i = 0; i < 100 && waiters.waiting() > 0; i++) {
      Thread.sleep(10);
    }
    assertEquals(0, waiters.waiting());
  }
}
