package org.scache.worker.requests;

import java.time.Duration;
import java.util.function.Function;
import org.scache.common.ApplicationShares;
import org.scache.common.Checks;
import org.scache.common.Clock;
import org.scache.common.QuotaOwner;
import org.scache.common.ScacheException;
import org.scache.common.protocol.Status;

/**
 * The bytes of socket puts announced and not yet complete, per application over all the worker's
 * connections, against the application's share of the reserve and one connection's bound; and how
 * long a put's payload may stall. A put past a bound is answered {@code RETRY_LATER}: it waits in the
 * client until the puts in flight end, so a client that announces puts and never sends their bytes
 * holds no more than its share. An application's or a connection's only put in flight is let through
 * whatever its size (the store decides whether it fits), so no block is refused for its size alone.
 * Thread-safe.
 */
public final class InFlightPuts {
  private final ApplicationShares held;
  private final long perConnection;
  private final Duration stallTimeout;
  private final Clock clock;

  /**
   * @param perApplication bytes one application may hold in puts in flight (its only put is let through)
   * @param perConnection bytes one connection may hold in puts in flight (its only put is let through)
   * @param stallTimeout how long a put's payload may get no byte while its connection is read
   */
  public InFlightPuts(long perApplication, long perConnection, Duration stallTimeout, Clock clock) {
    this(perApplication, perConnection, stallTimeout, clock, QuotaOwner::ofApplication);
  }

  /**
   * As above, {@code perOwner} bytes for all the applications of one owner ({@link QuotaOwner}, as {@code ownerOf}
   * names it: the user of each), so that a user's second application shares its first's bound.
   */
  public InFlightPuts(long perOwner, long perConnection, Duration stallTimeout, Clock clock,
      Function<String, String> ownerOf) {
    Checks.require(perOwner > 0, "in-flight bytes per owner must be positive: %s", perOwner);
    Checks.require(perConnection > 0, "in-flight bytes per connection must be positive: %s", perConnection);
    Checks.require(stallTimeout.toNanos() > 0, "the put stall timeout must be positive: %s", stallTimeout);
    this.held = new ApplicationShares(Long.MAX_VALUE, perOwner, ownerOf);
    this.perConnection = perConnection;
    this.stallTimeout = stallTimeout;
    this.clock = clock;
  }

  /** The applications of one owner (as {@code ownerOf} names it) may hold {@code share} of {@code reserveBytes}. */
  public static InFlightPuts of(long reserveBytes, double share, long perConnection, Duration stallTimeout,
      Clock clock, Function<String, String> ownerOf) {
    return new InFlightPuts(Math.max(1, (long) Math.floor(reserveBytes * share)), perConnection, stallTimeout,
        clock, ownerOf);
  }

  /** No bounds on bytes; puts stall for at most {@code stallTimeout}. */
  public static InFlightPuts unbounded(Duration stallTimeout, Clock clock) {
    return new InFlightPuts(Long.MAX_VALUE, Long.MAX_VALUE, stallTimeout, clock);
  }

  Duration stallTimeout() {
    return stallTimeout;
  }

  Clock clock() {
    return clock;
  }

  /**
   * Counts {@code bytes} more as in flight for {@code appId}, on a connection that holds
   * {@code connectionBytes} in {@code connectionPuts} puts already; or refuses with RETRY_LATER.
   */
  synchronized void admit(String appId, long bytes, long connectionBytes, int connectionPuts) {
    if (connectionPuts > 0 && bytes > perConnection - connectionBytes) {
      throw new ScacheException(Status.RETRY_LATER, "this connection holds " + connectionBytes + " bytes in "
          + connectionPuts + " puts not yet complete; " + bytes + " more would pass its bound, " + perConnection
          + " bytes (scache.worker.put.inflight.connection.max.bytes)");
    }
    if (held.heldByOwnerOf(appId) > 0 && !held.fitsApplication(appId, bytes)) {
      throw new ScacheException(Status.RETRY_LATER, held.describeOwnerOf(appId) + " holds "
          + held.heldByOwnerOf(appId) + " bytes in puts not yet complete; " + bytes + " more for " + appId
          + " would pass its share of the reserve, "
          + held.maxPerApplication() + " bytes (scache.worker.put.inflight.application.share)");
    }
    held.add(appId, bytes);
  }

  /** {@code bytes} of {@code appId}'s puts ended (committed, refused or aborted). */
  synchronized void release(String appId, long bytes) {
    held.remove(appId, bytes);
  }

  /** Bytes {@code appId} holds in puts in flight. */
  public synchronized long heldBy(String appId) {
    return held.heldBy(appId);
  }
}
