package org.scache.master;

import org.scache.common.Clock;

/** A clock that moves only when told to. */
final class ManualClock implements Clock {
  private long millis = 1_000_000;

  @Override
  public long millis() {
    return millis;
  }

  @Override
  public long nanos() {
    return millis * 1_000_000;
  }

  void advance(long ms) {
    millis += ms;
  }
}
