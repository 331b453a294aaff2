package org.scache.common.auth;

import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The SHA-256 digest of a request's payload, which a signed frame carries in its signed metadata so
 * that the proof covers the bytes too. The receiver feeds the payload through {@link #update} as it
 * arrives and compares at the end; a payload swapped under a captured header fails there.
 */
public final class PayloadDigest {
  public static final String ALGORITHM = "SHA-256";
  public static final int LENGTH = 32;

  private final MessageDigest digest;

  public PayloadDigest() {
    try {
      digest = MessageDigest.getInstance(ALGORITHM);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(ALGORITHM + " is not available in this JVM", e);
    }
  }

  /** The digest of the readable bytes of {@code payload}, which is left as it was. */
  public static byte[] of(ByteBuf payload) {
    PayloadDigest d = new PayloadDigest();
    d.update(payload);
    return d.finish();
  }

  /** Adds the readable bytes of {@code bytes}, without moving its reader index. */
  public void update(ByteBuf bytes) {
    for (ByteBuffer b : bytes.nioBuffers(bytes.readerIndex(), bytes.readableBytes())) {
      digest.update(b);
    }
  }

  public byte[] finish() {
    return digest.digest();
  }

  /** Whether {@code expected} is the digest of everything added; constant time. */
  public boolean matches(byte[] expected) {
    return MessageDigest.isEqual(finish(), expected);
  }
}
