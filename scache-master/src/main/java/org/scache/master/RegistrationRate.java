package org.scache.master;

import java.util.HashMap;
import java.util.Map;
import org.scache.common.Clock;
import org.scache.common.ScacheException;
import org.scache.common.protocol.Status;

/**
 * How many new applications each principal (a user, or a remote host when no user is known) may register: a
 * bucket per principal that fills at {@code perSecond} up to as many, so that one principal's flood of
 * registrations is answered RETRY_LATER at once and never queues before another's. Thread-safe.
 */
final class RegistrationRate {
  /** Principals tracked before full buckets are dropped (a full bucket is as good as none). */
  private static final int TRACKED = 10_000;

  private final Clock clock;
  private final double perSecond;
  private final Map<String, double[]> buckets = new HashMap<>();

  /** {@code perSecond} 0 or less: no limit. */
  RegistrationRate(Clock clock, int perSecond) {
    this.clock = clock;
    this.perSecond = perSecond > 0 ? perSecond : Double.POSITIVE_INFINITY;
  }

  static RegistrationRate unlimited() {
    return new RegistrationRate(Clock.SYSTEM, 0);
  }

  /** Counts one registration of {@code principal}, or refuses it with RETRY_LATER. */
  synchronized void take(String principal) {
    if (perSecond == Double.POSITIVE_INFINITY) {
      return;
    }
    long now = clock.millis();
    if (buckets.size() >= TRACKED) {
      buckets.values().removeIf(b -> fill(b, now) >= perSecond);
    }
    double[] bucket = buckets.computeIfAbsent(principal, p -> new double[] {perSecond, now});
    double tokens = fill(bucket, now);
    if (tokens < 1) {
      throw new ScacheException(Status.RETRY_LATER, principal + " registers new applications faster than "
          + (long) perSecond + " a second (scache.master.applications.registrations.per.second)");
    }
    bucket[0] = tokens - 1;
    bucket[1] = now;
  }

  private double fill(double[] bucket, long now) {
    return Math.min(perSecond, bucket[0] + (now - bucket[1]) * perSecond / 1000.0);
  }
}
