package org.scache.common.auth;

import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.security.MessageDigest;

/**
 * Computes and checks the proof a request carries: HMAC-SHA256, keyed with the principal's
 * secret, over the frame's type, request id and payload length, the connection's nonce, and the
 * signed bytes of its metadata (sequence number, payload digest, message). The payload is covered
 * through its SHA-256 digest ({@link PayloadDigest}), which the receiver checks as the bytes arrive.
 * The MAC is computed by {@link HmacSha256}, which needs no JCE.
 */
public final class FrameSigner {
  public static final int PROOF_LENGTH = 32;

  private static final ThreadLocal<HmacSha256> MAC = ThreadLocal.withInitial(HmacSha256::new);

  private FrameSigner() {}

  /** The proof for a frame with these fields, signed with {@code credentials}. */
  public static byte[] sign(Credentials credentials, int type, long requestId, long payloadLength, byte[] nonce,
      ByteBuf signed) {
    return sign(credentials.secret(), type, requestId, payloadLength, nonce, view(signed));
  }

  /** The proof for a frame with these fields and the remaining bytes of {@code signed}, which is left as it was. */
  public static byte[] sign(Credentials credentials, int type, long requestId, long payloadLength, byte[] nonce,
      ByteBuffer signed) {
    return sign(credentials.secret(), type, requestId, payloadLength, nonce, signed.duplicate());
  }

  /** Whether {@code proof} was made with {@code secret} over these fields; constant time. */
  public static boolean verify(byte[] secret, byte[] proof, int type, long requestId, long payloadLength,
      byte[] nonce, ByteBuf signed) {
    return MessageDigest.isEqual(sign(secret, type, requestId, payloadLength, nonce, view(signed)), proof);
  }

  private static ByteBuffer view(ByteBuf b) {
    return b.nioBuffer(b.readerIndex(), b.readableBytes());
  }

  private static byte[] sign(byte[] secret, int type, long requestId, long payloadLength, byte[] nonce,
      ByteBuffer meta) {
    HmacSha256 mac = MAC.get();
    mac.init(secret);
    ByteBuffer head = ByteBuffer.allocate(1 + 8 + 8);
    head.put((byte) type).putLong(requestId).putLong(payloadLength).flip();
    mac.update(head);
    mac.update((byte) nonce.length);
    mac.update(nonce);
    mac.update(meta);
    return mac.doFinal();
  }
}
