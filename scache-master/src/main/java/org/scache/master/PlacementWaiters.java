package org.scache.master;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.scache.common.ScacheException;
import org.scache.common.ShuffleKey;
import org.scache.common.protocol.Message;
import org.scache.common.protocol.Status;

/**
 * Asks for a shuffle's placement that wait for it to be final ({@code GET_SCHEDULE_RESULT} with a wait): each is
 * answered once every map of its shuffle has ended and the shuffle is placed, with the error the shuffle gives
 * instead (gone: UNKNOWN_SHUFFLE), or NOT_READY once its wait is over. A driver asking as its reduce stage is
 * submitted so gets the placement as soon as the last map's end reaches the master, not at its next poll.
 */
final class PlacementWaiters {
  /** The answer to a waiting ask now: empty while the shuffle's placement is not final. */
  interface FinalPlacement {
    /**
     * The answer for {@code shuffle} if its placement is final.
     *
     * @throws ScacheException when it cannot be answered (the shuffle is gone)
     */
    Optional<Message> now(ShuffleKey shuffle);
  }

  private final FinalPlacement placements;
  private final Map<ShuffleKey, List<CompletableFuture<Message>>> waiting = new HashMap<>();

  PlacementWaiters(FinalPlacement placements) {
    this.placements = placements;
  }

  /** The answer for {@code shuffle}: now when its placement is final, else when it is, or NOT_READY after the wait. */
  CompletableFuture<Message> await(ShuffleKey shuffle, long waitMillis) {
    Optional<Message> now = placements.now(shuffle);
    if (now.isPresent()) {
      return CompletableFuture.completedFuture(now.get());
    }
    CompletableFuture<Message> answer = new CompletableFuture<>();
    synchronized (this) {
      waiting.computeIfAbsent(shuffle, k -> new ArrayList<>()).add(answer);
    }
    answer.whenComplete((m, e) -> forget(shuffle, answer));
    CompletableFuture.delayedExecutor(waitMillis, TimeUnit.MILLISECONDS).execute(() -> answer.completeExceptionally(
        new ScacheException(Status.NOT_READY, shuffle + " was not placed with every map ended within " + waitMillis
            + " ms")));
    // the placement may have become final between the look above and the registration
    settle(shuffle);
    return answer;
  }

  /** Answers the waiting asks of every shuffle whose placement is now final, or which is gone. */
  void settleAll() {
    List<ShuffleKey> shuffles;
    synchronized (this) {
      if (waiting.isEmpty()) {
        return;
      }
      shuffles = List.copyOf(waiting.keySet());
    }
    shuffles.forEach(this::settle);
  }

  /** How many asks wait. */
  synchronized int waiting() {
    return waiting.values().stream().mapToInt(List::size).sum();
  }

  /** Answers the waiting asks of {@code shuffle} if its placement is now final, or it is gone. */
  void settle(ShuffleKey shuffle) {
    Optional<Message> now;
    try {
      now = placements.now(shuffle);
    } catch (RuntimeException e) {
      taken(shuffle).forEach(a -> a.completeExceptionally(e));
      return;
    }
    now.ifPresent(m -> taken(shuffle).forEach(a -> a.complete(m)));
  }

  private synchronized List<CompletableFuture<Message>> taken(ShuffleKey shuffle) {
    List<CompletableFuture<Message>> answers = waiting.remove(shuffle);
    return answers == null ? List.of() : answers;
  }

  private synchronized void forget(ShuffleKey shuffle, CompletableFuture<Message> answer) {
    List<CompletableFuture<Message>> answers = waiting.get(shuffle);
    if (answers != null && answers.remove(answer) && answers.isEmpty()) {
      waiting.remove(shuffle);
    }
  }
}
