package org.scache.worker.local;

import java.util.function.Function;
import org.scache.common.ApplicationShares;
import org.scache.common.QuotaOwner;
import org.scache.common.ScacheException;
import org.scache.common.protocol.Status;

/**
 * How much of the reserve each application holds in leases not yet committed as blocks, across all
 * its connections, against its owner's share of the reserve (a user's applications share one); and how
 * many leases one connection may hold. A client that leases memory and never fills it can so take no more
 * than its share: the other applications' puts keep the rest. Thread-safe.
 */
public final class LeaseQuota {
  private final ApplicationShares leased;
  private final int maxPerConnection;

  private LeaseQuota(ApplicationShares leased, int maxPerConnection) {
    this.leased = leased;
    this.maxPerConnection = maxPerConnection;
  }

  static LeaseQuota unlimited() {
    return new LeaseQuota(ApplicationShares.unlimited(), Integer.MAX_VALUE);
  }

  /** An application may hold {@code share} of {@code reserveBytes} in uncommitted leases. */
  public static LeaseQuota of(long reserveBytes, double share, int maxPerConnection) {
    return of(reserveBytes, share, maxPerConnection, QuotaOwner::ofApplication);
  }

  /**
   * The applications of one owner ({@link QuotaOwner}, as {@code ownerOf} names it) may hold {@code share} of
   * {@code reserveBytes} in uncommitted leases, together.
   */
  public static LeaseQuota of(long reserveBytes, double share, int maxPerConnection,
      Function<String, String> ownerOf) {
    return new LeaseQuota(new ApplicationShares(Long.MAX_VALUE, (long) Math.floor(reserveBytes * share), ownerOf),
        maxPerConnection);
  }

  int maxPerConnection() {
    return maxPerConnection;
  }

  /** Counts {@code bytes} more as leased by {@code appId}, or refuses with LIMIT_EXCEEDED. */
  synchronized void take(String appId, long bytes) {
    if (!leased.fitsApplication(appId, bytes)) {
      throw new ScacheException(Status.LIMIT_EXCEEDED, leased.describeOwnerOf(appId) + " holds "
          + leased.heldByOwnerOf(appId) + " bytes in leases not yet committed (application " + appId + " "
          + leased.heldBy(appId) + "); " + bytes + " more would pass its share of the reserve, "
          + leased.maxPerApplication() + " bytes (scache.worker.local.lease.application.share)");
    }
    leased.add(appId, bytes);
  }

  /** {@code bytes} of {@code appId}'s leases were committed or given back. */
  synchronized void giveBack(String appId, long bytes) {
    leased.remove(appId, bytes);
  }

  synchronized long leasedBy(String appId) {
    return leased.heldBy(appId);
  }
}
