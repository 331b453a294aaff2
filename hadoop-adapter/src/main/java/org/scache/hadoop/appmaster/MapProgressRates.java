package org.scache.hadoop.appmaster;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * When each running map should end at the pace its progress reports show: from the first progress the
 * application master saw of an attempt to its latest, the rest of it at the same rate. A JVM's start-up
 * and the first report's age weigh less the longer the attempt is watched; an attempt watched for less than
 * {@link #MIN_WATCH_MILLIS}, or whose progress has not moved, has no such forecast.
 */
final class MapProgressRates {
  static final long MIN_WATCH_MILLIS = 2_000;

  private record Sample(long at, double progress) {}

  private final Map<Object, Sample> first = new HashMap<>();

  /** The expected end (epoch ms) of the attempt {@code attempt} at {@code progress} (0 to 1) now, or 0 if not known. */
  long expectedEnd(Object attempt, long now, double progress) {
    if (!(progress > 0)) {
      return 0;
    }
    Sample seen = first.putIfAbsent(attempt, new Sample(now, progress));
    if (seen == null || now - seen.at() < MIN_WATCH_MILLIS || progress <= seen.progress()) {
      return 0;
    }
    double perMilli = (progress - seen.progress()) / (now - seen.at());
    return now + (long) Math.ceil(Math.max(0, 1 - progress) / perMilli);
  }

  /** Forgets the attempts that are not running any more. */
  void retain(Set<?> running) {
    first.keySet().retainAll(running);
  }
}
