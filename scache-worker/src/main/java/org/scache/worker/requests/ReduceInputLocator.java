package org.scache.worker.requests;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.scache.common.Clock;
import org.scache.common.ScacheException;
import org.scache.common.ShuffleKey;
import org.scache.common.protocol.Status;
import org.scache.worker.cluster.BlockLocator;
import org.scache.worker.cluster.LocatedBlocks;

/**
 * Locates a reduce's input at the master once it is complete: asks again, backing off, until every
 * map of the shuffle has finished or the wait is over, which ends in {@link Status#INPUT_INCOMPLETE}.
 * A wait of 0 answers with the maps finished so far. Lost map output fails at once (BLOCK_NOT_FOUND),
 * as the maps must be re-run.
 */
public final class ReduceInputLocator {
  private static final long FIRST_RETRY_MILLIS = 5;
  private static final long MAX_RETRY_MILLIS = 200;

  private final BlockLocator master;
  private final ScheduledExecutorService timer;
  private final Clock clock;
  private final Duration defaultWait;

  public ReduceInputLocator(BlockLocator master, ScheduledExecutorService timer, Clock clock, Duration defaultWait) {
    this.master = master;
    this.timer = timer;
    this.clock = clock;
    this.defaultWait = defaultWait;
  }

  /** The locations of the reduce's final blocks, complete unless {@code waitMillis} is 0. */
  CompletableFuture<LocatedBlocks> locate(ShuffleKey shuffle, int reduceId, long waitMillis) {
    long wait = waitMillis < 0 ? defaultWait.toMillis() : waitMillis;
    CompletableFuture<LocatedBlocks> result = new CompletableFuture<>();
    attempt(shuffle, reduceId, wait, clock.nanos() + TimeUnit.MILLISECONDS.toNanos(wait), FIRST_RETRY_MILLIS, result);
    return result;
  }

  private void attempt(ShuffleKey shuffle, int reduceId, long wait, long deadlineNanos, long retryMillis,
      CompletableFuture<LocatedBlocks> result) {
    master.locate(shuffle, reduceId, BlockLocator.ALL_MAPS).whenComplete((found, e) -> {
      if (e != null) {
        result.completeExceptionally(ScacheException.from(e));
        return;
      }
      if (wait == 0 || found.complete()) {
        result.complete(found);
        return;
      }
      long left = deadlineNanos - clock.nanos();
      if (left <= 0) {
        result.completeExceptionally(new ScacheException(Status.INPUT_INCOMPLETE, "the input of reduce "
            + reduceId + " of " + shuffle.appId() + "/shuffle_" + shuffle.shuffleId() + " is incomplete: "
            + found.finishedMaps() + " of " + found.numMaps() + " maps finished within " + wait
            + " ms; the maps that never finished must be (re-)run, or read with a wait of 0 for a partial input"));
        return;
      }
      long delay = Math.min(retryMillis, TimeUnit.NANOSECONDS.toMillis(left) + 1);
      timer.schedule(() -> attempt(shuffle, reduceId, wait, deadlineNanos, Math.min(retryMillis * 2, MAX_RETRY_MILLIS),
          result), delay, TimeUnit.MILLISECONDS);
    });
  }
}
