package org.scache.common.testing;

import java.time.Duration;
import org.scache.common.Clock;

/** A clock that moves only when a test moves it; its millis and nanos move together. */
public final class ManualClock implements Clock {
  private long nanos = 1_000_000_000_000L;

  @Override
  public synchronized long millis() {
    return nanos / 1_000_000;
  }

  @Override
  public synchronized long nanos() {
    return nanos;
  }

  public synchronized void advance(Duration by) {
    nanos += by.toNanos();
  }
}
