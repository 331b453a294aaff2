package org.scache.worker;

import org.scache.common.Clock;

/** A clock tests move by hand. */
final class ManualClock implements Clock {
  private long nanos = 1_000_000_000L;

  @Override
  public long millis() {
    return nanos / 1_000_000;
  }

  @Override
  public long nanos() {
    return nanos;
  }

  void advanceNanos(long n) {
    nanos += n;
  }
}
