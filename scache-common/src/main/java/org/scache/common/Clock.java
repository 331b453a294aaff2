package org.scache.common;

/** The one source of time for SCache components; tests inject a manual clock. */
public interface Clock {

  /** Wall-clock milliseconds since the epoch. */
  long millis();

  /** Monotonic nanoseconds, for durations. */
  long nanos();

  /** The system clock. */
  Clock SYSTEM = new Clock() {
    @Override
    public long millis() {
      return System.currentTimeMillis();
    }

    @Override
    public long nanos() {
      return System.nanoTime();
    }
  };
}
