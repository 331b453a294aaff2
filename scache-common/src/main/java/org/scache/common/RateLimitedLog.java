package org.scache.common;

import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A logger for lines a peer can cause at will (bad input, refused connections): at most
 * {@code linesPerWindow} lines per window, and one line saying how many were left out when the next
 * window opens. So a flood of bad frames costs a few lines, not megabytes of log.
 */
public final class RateLimitedLog {
  public static final int DEFAULT_LINES = 20;
  public static final long DEFAULT_WINDOW_NANOS = TimeUnit.MINUTES.toNanos(1);

  private final Logger log;
  private final Clock clock;
  private final int linesPerWindow;
  private final long windowNanos;
  private long windowStart;
  private int lines;
  private long suppressed;

  public RateLimitedLog(Logger log, Clock clock, int linesPerWindow, long windowNanos) {
    this.log = log;
    this.clock = clock;
    this.linesPerWindow = linesPerWindow;
    this.windowNanos = windowNanos;
    this.windowStart = clock.nanos();
  }

  /** {@link #DEFAULT_LINES} lines a minute, on the system clock. */
  public static RateLimitedLog of(Class<?> owner) {
    return new RateLimitedLog(LoggerFactory.getLogger(owner), Clock.SYSTEM, DEFAULT_LINES, DEFAULT_WINDOW_NANOS);
  }

  public void info(String format, Object... args) {
    if (admit()) {
      log.info(format, args);
    }
  }

  public void warn(String format, Object... args) {
    if (admit()) {
      log.warn(format, args);
    }
  }

  /** Lines left out since the last line that said so. */
  public synchronized long suppressed() {
    return suppressed;
  }

  private boolean admit() {
    long left;
    synchronized (this) {
      long now = clock.nanos();
      if (now - windowStart >= windowNanos) {
        left = suppressed;
        suppressed = 0;
        lines = 0;
        windowStart = now;
      } else {
        left = 0;
      }
      if (lines >= linesPerWindow) {
        suppressed++;
        return false;
      }
      lines++;
    }
    if (left > 0) {
      log.warn("{} more lines like the next were left out in the last {} s", left,
          TimeUnit.NANOSECONDS.toSeconds(windowNanos));
    }
    return true;
  }
}
