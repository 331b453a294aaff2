package org.scache.worker;

import java.util.HashMap;
import java.util.Map;
import org.scache.common.ScacheException;
import org.scache.common.protocol.Status;

/**
 * How much of the reserve each application holds in leases not yet committed as blocks, across all
 * its connections, against its share of the reserve; and how many leases one connection may hold.
 * A client that leases memory and never fills it can so take no more than its share: the other
 * applications' puts keep the rest. Thread-safe.
 */
final class LeaseQuota {
  private final long maxPerApplication;
  private final int maxPerConnection;
  private final Map<String, Long> leased = new HashMap<>();

  LeaseQuota(long maxPerApplication, int maxPerConnection) {
    this.maxPerApplication = maxPerApplication;
    this.maxPerConnection = maxPerConnection;
  }

  static LeaseQuota unlimited() {
    return new LeaseQuota(Long.MAX_VALUE, Integer.MAX_VALUE);
  }

  /** An application may hold {@code share} of {@code reserveBytes} in uncommitted leases. */
  static LeaseQuota of(long reserveBytes, double share, int maxPerConnection) {
    return new LeaseQuota((long) Math.floor(reserveBytes * share), maxPerConnection);
  }

  int maxPerConnection() {
    return maxPerConnection;
  }

  /** Counts {@code bytes} more as leased by {@code appId}, or refuses with LIMIT_EXCEEDED. */
  synchronized void take(String appId, long bytes) {
    long held = leased.getOrDefault(appId, 0L);
    if (held + bytes > maxPerApplication) {
      throw new ScacheException(Status.LIMIT_EXCEEDED, "application " + appId + " holds " + held + " bytes in "
          + "leases not yet committed; " + bytes + " more would pass its share of the reserve, " + maxPerApplication
          + " bytes (scache.worker.local.lease.application.share)");
    }
    leased.put(appId, held + bytes);
  }

  /** {@code bytes} of {@code appId}'s leases were committed or given back. */
  synchronized void giveBack(String appId, long bytes) {
    leased.computeIfPresent(appId, (a, held) -> held - bytes <= 0 ? null : held - bytes);
  }

  synchronized long leasedBy(String appId) {
    return leased.getOrDefault(appId, 0L);
  }
}
