package org.scache.common;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** A flood of lines costs a fixed number per window, and the next window says how many were left out. */
class RateLimitedLogTest {
  private long now;
  private final Clock clock = new Clock() {
    @Override
    public long millis() {
      return TimeUnit.NANOSECONDS.toMillis(now);
    }

    @Override
    public long nanos() {
      return now;
    }
  };

  @Test
  void linesPastTheWindowsAllowance_areLeftOut_andCountedUntilTheNextWindow() {
    RateLimitedLog log = new RateLimitedLog(LoggerFactory.getLogger(RateLimitedLogTest.class), clock, 3,
        TimeUnit.SECONDS.toNanos(10));
    for (int i = 0; i < 1000; i++) {
      log.info("line {}", i);
    }
    assertEquals(997, log.suppressed());
    now += TimeUnit.SECONDS.toNanos(9);
    log.info("still the same window");
    assertEquals(998, log.suppressed());
    now += TimeUnit.SECONDS.toNanos(2);
    log.warn("a new window");
    assertEquals(0, log.suppressed(), "the count was told and starts again");
    log.info("second");
    log.info("third");
    log.info("fourth");
    assertEquals(1, log.suppressed());
  }
}
