package org.scache.common.protocol;

import java.security.SecureRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What ties a signed request to the one connection it was sent on, so that a captured frame is
 * worth nothing anywhere else: the accepting side chooses a random nonce per connection and sends
 * it first ({@link ServerHello}); every signed request on the connection covers that nonce
 * and a sequence number above all earlier ones on it. A replay on another connection fails the
 * proof; a replay on the same connection fails the sequence. The state is two numbers per
 * connection.
 */
public final class ChannelBinding {
  public static final int NONCE_LENGTH = 16;
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final byte[] NONE = new byte[0];

  private volatile byte[] nonce;
  private final AtomicLong sequence = new AtomicLong();
  private final boolean digestsPayloads;

  private ChannelBinding(byte[] nonce, boolean digestsPayloads) {
    this.nonce = nonce;
    this.digestsPayloads = digestsPayloads;
  }

  /** The accepting side of a new connection: a fresh random nonce. */
  public static ChannelBinding accepted() {
    byte[] n = new byte[NONCE_LENGTH];
    RANDOM.nextBytes(n);
    return new ChannelBinding(n, false);
  }

  /**
   * The connecting side: the nonce is learned from the peer's {@link ServerHello}; with
   * {@code digestsPayloads} its signed requests also cover their payload's SHA-256 digest.
   */
  public static ChannelBinding connecting(boolean digestsPayloads) {
    return new ChannelBinding(null, digestsPayloads);
  }

  /** A binding with a known nonce on both sides that digests payloads, for codec tests. */
  public static ChannelBinding withNonce(byte[] nonce) {
    return new ChannelBinding(nonce.clone(), true);
  }

  /** Whether signed requests sent on this connection carry their payload's digest. */
  public boolean digestsPayloads() {
    return digestsPayloads;
  }

  /** The connection's nonce, or an empty array before the peer's greeting has arrived. */
  public byte[] nonce() {
    byte[] n = nonce;
    return n == null ? NONE : n;
  }

  public boolean knowsNonce() {
    return nonce != null;
  }

  /** Records the nonce the accepting peer sent; a second, different greeting is refused. */
  public void learn(byte[] peerNonce) {
    if (peerNonce.length != NONCE_LENGTH) {
      throw new IllegalArgumentException("a connection nonce has " + NONCE_LENGTH + " bytes, not " + peerNonce.length);
    }
    byte[] known = nonce;
    if (known != null && !java.util.Arrays.equals(known, peerNonce)) {
      throw new IllegalStateException("the peer sent a second, different connection nonce");
    }
    nonce = peerNonce.clone();
  }

  /** The sequence number for the next signed request sent on this connection. */
  long nextSequence() {
    return sequence.incrementAndGet();
  }

  /**
   * Whether a signed request with {@code s} may still be taken on this connection: only when it is
   * above every sequence admitted before. Does not move the floor: a frame whose proof has not been
   * checked must not shut out the requests that follow it.
   */
  boolean isAbove(long s) {
    return s > sequence.get();
  }

  /**
   * Takes {@code s}, the sequence of a signed request whose proof has been verified, if it is above
   * every sequence taken before on this connection: it then becomes the new floor. False for a
   * replay. Called only after the proof verifies, so a forged frame never moves the floor.
   */
  public boolean admit(long s) {
    long last = sequence.get();
    return s > last && sequence.compareAndSet(last, s);
  }
}
