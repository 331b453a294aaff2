package org.scache.tez;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.tez.runtime.api.InputContext;
import org.apache.tez.runtime.api.events.InputReadErrorEvent;
import org.scache.common.Clock;

/**
 * Producer attempts whose SCache block a consumer could not read. Each is reported to the
 * application master as an input read error (so Tez re-runs the producer, as it does when its own
 * fetch fails), again at an interval until a new attempt's data movement event arrives, and the
 * consumer gives up after a bounded wait instead of hanging.
 */
final class LostInputs {
  private final InputContext context;
  private final Clock clock;
  private final long reportIntervalMillis;
  private final long timeoutMillis;
  private final Map<ConsumerInputs.Source, Long> lostSince = new HashMap<>();
  private long lastReport;

  LostInputs(InputContext context, Clock clock, long reportIntervalMillis, long timeoutMillis) {
    this.context = context;
    this.clock = clock;
    this.reportIntervalMillis = reportIntervalMillis;
    this.timeoutMillis = timeoutMillis;
  }

  boolean isLost(ConsumerInputs.Source s) {
    return lostSince.containsKey(s);
  }

  void add(ConsumerInputs.Source s, String why) {
    lostSince.putIfAbsent(s, clock.millis());
    context.getCounters().findCounter(ScacheTezCounter.LOST_INPUTS).increment(1);
    report(s, why);
  }

  /** Forgets sources that are no longer final (a new attempt replaced them). */
  void retainCurrent(ConsumerInputs inputs) {
    lostSince.keySet().removeIf(s -> !inputs.isCurrent(s));
  }

  /** Reports every still-lost input again when the interval passed; fails when one waited too long. */
  void reportAgainIfDue() throws IOException {
    long now = clock.millis();
    for (Map.Entry<ConsumerInputs.Source, Long> e : lostSince.entrySet()) {
      if (now - e.getValue() > timeoutMillis) {
        throw new IOException("the SCache block of " + e.getKey() + " is lost and no new attempt of the producer "
            + "arrived within " + TezScacheOptions.LOST_INPUT_TIMEOUT.key());
      }
    }
    if (!lostSince.isEmpty() && now - lastReport >= reportIntervalMillis) {
      lostSince.keySet().forEach(s -> report(s, "still lost"));
    }
  }

  private void report(ConsumerInputs.Source s, String why) {
    context.sendEvents(List.of(InputReadErrorEvent.create("SCache block of map " + s.mapId() + " attempt "
        + s.attempt() + " partition " + s.partition() + " is lost: " + why, s.index(), s.attempt())));
    lastReport = clock.millis();
  }
}
