package org.scache.common;

import java.util.HashMap;
import java.util.Map;

/**
 * An amount (blocks, bytes) that applications hold against a limit in all and a limit per
 * application, so that one application cannot take what the others need. Callers say what a
 * refusal means; this only counts. Not thread-safe: its owner guards it.
 */
public final class ApplicationShares {
  private final long max;
  private final long maxPerApplication;
  private final Map<String, Long> held = new HashMap<>();
  private long total;

  public ApplicationShares(long max, long maxPerApplication) {
    this.max = max;
    this.maxPerApplication = Math.min(max, maxPerApplication);
  }

  /** {@code max} in all, and {@code share} of it (at least 1) per application. */
  public static ApplicationShares of(long max, double share) {
    return new ApplicationShares(max, (long) Math.max(1, Math.floor(max * share)));
  }

  public static ApplicationShares unlimited() {
    return new ApplicationShares(Long.MAX_VALUE, Long.MAX_VALUE);
  }

  public long max() {
    return max;
  }

  public long maxPerApplication() {
    return maxPerApplication;
  }

  public long total() {
    return total;
  }

  public long heldBy(String appId) {
    return held.getOrDefault(appId, 0L);
  }

  /** Whether {@code amount} more stays within the limit in all. */
  public boolean fitsInAll(long amount) {
    return amount <= max - total;
  }

  /** Whether {@code amount} more for {@code appId} stays within its limit. */
  public boolean fitsApplication(String appId, long amount) {
    return amount <= maxPerApplication - heldBy(appId);
  }

  public void add(String appId, long amount) {
    total += amount;
    held.merge(appId, amount, Long::sum);
  }

  public void remove(String appId, long amount) {
    total -= amount;
    held.computeIfPresent(appId, (a, n) -> n - amount <= 0 ? null : n - amount);
  }
}
