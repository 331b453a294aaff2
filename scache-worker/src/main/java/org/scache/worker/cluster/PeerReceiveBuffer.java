package org.scache.worker.cluster;

import java.util.function.IntSupplier;
import org.scache.common.Checks;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The receive buffer (SO_RCVBUF) a new connection of this worker's to another worker gets, in bytes, 0 leaving it to
 * the kernel's autotuning. Configured, it is that. Otherwise, once the operator has said how fast a node's link is and
 * a round trip to the master has been timed, it is twice the link's bandwidth-delay product over the shortest round
 * trip seen, at least {@link #FLOOR} and at most {@link #CEILING}: enough for one connection to fill the link, small
 * enough that connections sharing a link with a deep queue keep few bytes in it each and so get equal shares. The
 * shortest round trip, not the latest, since a loaded link's queue lengthens every later one.
 */
public final class PeerReceiveBuffer implements IntSupplier {
  private static final Logger LOG = LoggerFactory.getLogger(PeerReceiveBuffer.class);
  /** The least a derived buffer is: the largest window TCP offers without window scaling. */
  static final int FLOOR = 64 * 1024;
  /** The most a derived buffer is. */
  static final int CEILING = 16 << 20;

  private final int configuredBytes;
  private final long linkBitsPerSecond;
  private volatile long shortestRoundTripNanos = Long.MAX_VALUE;
  private int lastLogged;

  /**
   * {@code configuredBytes} above 0 is used as it is; else a buffer is derived when {@code linkMbitPerSecond} is
   * above 0, and the kernel's autotuning is left alone until then, or for good when it is 0.
   */
  public PeerReceiveBuffer(long configuredBytes, int linkMbitPerSecond) {
    Checks.require(configuredBytes >= 0, "a receive buffer cannot be negative: %s", configuredBytes);
    Checks.require(linkMbitPerSecond >= 0, "a link rate cannot be negative: %s", linkMbitPerSecond);
    this.configuredBytes = (int) Math.min(configuredBytes, Integer.MAX_VALUE);
    this.linkBitsPerSecond = linkMbitPerSecond * 1_000_000L;
  }

  /** A request to the master and its answer took {@code nanos}. */
  public void roundTrip(long nanos) {
    if (nanos > 0 && nanos < shortestRoundTripNanos) {
      shortestRoundTripNanos = nanos;
    }
  }

  /** The shortest round trip to the master timed so far, in microseconds; -1 before the first. */
  public long shortestRoundTripMicros() {
    long rtt = shortestRoundTripNanos;
    return rtt == Long.MAX_VALUE ? -1 : rtt / 1000;
  }

  /** The buffer a connection opened now gets, in bytes, 0 for the kernel's autotuning; logged when it changes. */
  @Override
  public int getAsInt() {
    long rtt = shortestRoundTripNanos;
    int bytes = bytes(rtt);
    if (configuredBytes == 0 && bytes > 0) {
      logIfNew(bytes, rtt);
    }
    return bytes;
  }

  /** What {@link #getAsInt} would give, without logging it. */
  public int current() {
    return bytes(shortestRoundTripNanos);
  }

  private int bytes(long rtt) {
    if (configuredBytes > 0) {
      return configuredBytes;
    }
    if (linkBitsPerSecond == 0 || rtt == Long.MAX_VALUE) {
      return 0;
    }
    double bandwidthDelayBytes = linkBitsPerSecond / 8.0 * rtt / 1e9;
    return (int) Math.max(FLOOR, Math.min(CEILING, 2 * bandwidthDelayBytes));
  }

  private synchronized void logIfNew(int bytes, long rtt) {
    if (bytes != lastLogged) {
      lastLogged = bytes;
      LOG.info("new connections to other workers get a {}-byte receive buffer: twice a {} Mbit/s link's "
          + "bandwidth-delay product over the shortest round trip to the master, {} µs, at least {}", bytes,
          linkBitsPerSecond / 1_000_000, rtt / 1000, FLOOR);
    }
  }
}
