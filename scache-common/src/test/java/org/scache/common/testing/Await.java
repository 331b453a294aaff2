package org.scache.common.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Waits in tests for a condition that another thread or process makes true, polling it a few times a second. */
public final class Await {
  private static final long POLL_MILLIS = 20;

  private Await() {}

  /** Returns once {@code condition} holds; fails with "timed out waiting until {@code what}" after {@code timeout}. */
  public static void until(BooleanSupplier condition, Duration timeout, String what) {
    until(condition, timeout, () -> "timed out after " + timeout.toMillis() + " ms waiting until " + what);
  }

  /**
   * Returns once {@code condition} holds; after {@code timeout} it fails with the message {@code failure} gives then,
   * so that the message can describe the state the wait ended in.
   */
  public static void until(BooleanSupplier condition, Duration timeout, Supplier<String> failure) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError(failure.get());
      }
      try {
        Thread.sleep(POLL_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted while waiting", e);
      }
    }
  }

  /** Whether {@code condition} holds, with an exception it throws counted as not yet (a daemon still starting). */
  public static boolean quietly(BooleanSupplier condition) {
    try {
      return condition.getAsBoolean();
    } catch (RuntimeException notYet) {
      return false;
    }
  }
}
