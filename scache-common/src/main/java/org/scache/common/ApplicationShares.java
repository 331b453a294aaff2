package org.scache.common;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * An amount (blocks, bytes) that applications hold against a limit in all and a limit per owner (the user of
 * the applications, {@link QuotaOwner}), so that one user cannot take what the others need however many
 * applications it registers. An application's owner is asked of the resolver when the application starts
 * holding, and kept until it holds nothing, so what it gives back is taken off the owner it was counted for.
 * Callers say what a refusal means; this only counts. Not thread-safe: its owner guards it.
 */
public final class ApplicationShares {
  private final long max;
  private final long maxPerApplication;
  private final Function<String, String> ownerOf;
  private final Map<String, Long> held = new HashMap<>();
  private final Map<String, String> ownerOfHolder = new HashMap<>();
  private final Map<String, Long> heldByOwner = new HashMap<>();
  private long total;

  /** Every application its own owner. */
  public ApplicationShares(long max, long maxPerApplication) {
    this(max, maxPerApplication, QuotaOwner::ofApplication);
  }

  /** {@code maxPerOwner} for all the applications of one owner, as {@code ownerOf} names it. */
  public ApplicationShares(long max, long maxPerOwner, Function<String, String> ownerOf) {
    this.max = max;
    this.maxPerApplication = Math.min(max, maxPerOwner);
    this.ownerOf = ownerOf;
  }

  /** {@code max} in all, and {@code share} of it (at least 1) per application. */
  public static ApplicationShares of(long max, double share) {
    return of(max, share, QuotaOwner::ofApplication);
  }

  /** {@code max} in all, and {@code share} of it (at least 1) per owner. */
  public static ApplicationShares of(long max, double share, Function<String, String> ownerOf) {
    return new ApplicationShares(max, (long) Math.max(1, Math.floor(max * share)), ownerOf);
  }

  public static ApplicationShares unlimited() {
    return new ApplicationShares(Long.MAX_VALUE, Long.MAX_VALUE);
  }

  public long max() {
    return max;
  }

  /** The limit of one owner, over all its applications. */
  public long maxPerApplication() {
    return maxPerApplication;
  }

  public long total() {
    return total;
  }

  public long heldBy(String appId) {
    return held.getOrDefault(appId, 0L);
  }

  /** What the owner of {@code appId} holds, over all its applications. */
  public long heldByOwnerOf(String appId) {
    return heldByOwner.getOrDefault(owner(appId), 0L);
  }

  /** The owner {@code appId} is counted for: "user alice" or "application app-1". */
  public String describeOwnerOf(String appId) {
    return QuotaOwner.describe(owner(appId));
  }

  /** Whether two applications count against one owner's share (the same user's, or one application). */
  public boolean sameOwner(String appId, String otherAppId) {
    return owner(appId).equals(owner(otherAppId));
  }

  /** Whether {@code amount} more stays within the limit in all. */
  public boolean fitsInAll(long amount) {
    return amount <= max - total;
  }

  /** Whether {@code amount} more for {@code appId} stays within its owner's limit. */
  public boolean fitsApplication(String appId, long amount) {
    return amount <= maxPerApplication - heldByOwnerOf(appId);
  }

  public void add(String appId, long amount) {
    String owner = ownerOfHolder.computeIfAbsent(appId, ownerOf);
    total += amount;
    held.merge(appId, amount, Long::sum);
    heldByOwner.merge(owner, amount, Long::sum);
  }

  public void remove(String appId, long amount) {
    total -= amount;
    Long left = held.computeIfPresent(appId, (a, n) -> n - amount <= 0 ? null : n - amount);
    String owner = left == null ? ownerOfHolder.remove(appId) : ownerOfHolder.get(appId);
    if (owner != null) {
      heldByOwner.computeIfPresent(owner, (o, n) -> n - amount <= 0 ? null : n - amount);
    }
  }

  private String owner(String appId) {
    String kept = ownerOfHolder.get(appId);
    return kept != null ? kept : ownerOf.apply(appId);
  }
}
