package org.scache.common.protocol;

import io.netty.buffer.Unpooled;
import java.util.Optional;
import org.scache.common.auth.FrameSigner;

/**
 * A message as received: its request id, its auth tag if signed, and the length of the payload
 * that follows as {@link PayloadChunk}s. {@link #verify} checks the tag against a secret.
 */
public record InboundFrame(long requestId, Message message, Optional<AuthTag> auth, long payloadLength) {

  /**
   * The signer's principal and proof; the sequence number and payload digest the proof covers; the
   * nonce of the connection the frame arrived on; and the signed metadata bytes needed to check it.
   */
  public record AuthTag(String principal, byte[] proof, long sequence, byte[] payloadDigest, byte[] nonce,
      byte[] signedMeta) {}

  /**
   * Whether this frame carries a tag for {@code principal} made with {@code secret} on this
   * connection. A frame with a payload is only proven once its bytes match the signed digest too.
   */
  public boolean verify(String principal, byte[] secret) {
    if (auth.isEmpty() || !auth.get().principal().equals(principal)) {
      return false;
    }
    AuthTag tag = auth.get();
    return FrameSigner.verify(secret, tag.proof(), message.type().id(), requestId, payloadLength, tag.nonce(),
        Unpooled.wrappedBuffer(tag.signedMeta()));
  }

  /** The SHA-256 digest of the payload the proof covers (empty without auth or payload). */
  public byte[] signedPayloadDigest() {
    return auth.map(a -> a.payloadDigest().clone()).orElse(new byte[0]);
  }
}
