package org.scache.benchmarks.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.scache.dist.Throughput;

class CallLoopTest {

  @Test
  void run_stopsAtTheCallBudget_andCountsEveryCallMeasured() {
    AtomicInteger calls = new AtomicInteger();
    Throughput t = CallLoop.run(4, Duration.ZERO, Duration.ofMinutes(1), 100, 10, i -> {
      calls.incrementAndGet();
      return CompletableFuture.completedFuture(null);
    });
    assertEquals(100, calls.get());
    assertEquals(100, t.operations());
    assertEquals(1000, t.bytes());
  }

  @Test
  void run_neverHasMoreThanTheWindowInFlight() {
    AtomicInteger open = new AtomicInteger();
    AtomicInteger most = new AtomicInteger();
    CallLoop.run(3, Duration.ZERO, Duration.ofMillis(50), 1000, 1, i -> {
      most.accumulateAndGet(open.incrementAndGet(), Math::max);
      return CompletableFuture.runAsync(() -> { }).whenComplete((v, e) -> open.decrementAndGet());
    });
    assertTrue(most.get() <= 3, "at most 3 in flight, saw " + most.get());
  }

  @Test
  void run_measuresNothing_whenTheBudgetEndsDuringWarmUp() {
    Throughput t = CallLoop.run(1, Duration.ofMinutes(1), Duration.ofSeconds(1), 5, 1,
        i -> CompletableFuture.completedFuture(null));
    assertEquals(Throughput.NONE, t);
  }
}
