package org.scache.common.auth;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/**
 * HMAC-SHA256 (RFC 2104) over the JDK's SHA-256 {@link MessageDigest}: the same function as
 * {@code javax.crypto.Mac.getInstance("HmacSHA256")}, byte for byte, without the JCE framework. A
 * task JVM lives a few seconds, and the JCE's first use (its crypto policy files read and parsed, its
 * provider checked) costs it tens of milliseconds that Hadoop's own map tasks never pay; SHA-256
 * comes from the provider every JVM has started anyway. Not thread-safe: one instance per thread.
 */
final class HmacSha256 {
  static final int LENGTH = 32;
  private static final int BLOCK = 64;
  private static final byte IPAD = 0x36;
  private static final byte OPAD = 0x5c;

  private final MessageDigest inner = sha256();
  private final MessageDigest outer = sha256();
  private final byte[] pad = new byte[BLOCK];

  /** Starts a MAC keyed with {@code key}; what was given before is dropped. */
  void init(byte[] key) {
    inner.reset();
    outer.reset();
    // a key longer than the block is hashed first (the digest resets itself)
    byte[] k = key.length > BLOCK ? inner.digest(key) : key;
    Arrays.fill(pad, (byte) 0);
    System.arraycopy(k, 0, pad, 0, k.length);
    for (int i = 0; i < BLOCK; i++) {
      pad[i] ^= IPAD;
    }
    inner.update(pad);
    for (int i = 0; i < BLOCK; i++) {
      pad[i] ^= (byte) (IPAD ^ OPAD);
    }
    outer.update(pad);
    Arrays.fill(pad, (byte) 0);
  }

  void update(byte b) {
    inner.update(b);
  }

  void update(byte[] bytes) {
    inner.update(bytes);
  }

  /** Takes the remaining bytes of {@code bytes}, leaving its position at its limit. */
  void update(ByteBuffer bytes) {
    inner.update(bytes);
  }

  /** The MAC of everything given since {@link #init}; the instance must be keyed again before its next use. */
  byte[] doFinal() {
    outer.update(inner.digest());
    return outer.digest();
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is not available in this JVM", e);
    }
  }
}
