package org.scache.common.protocol;

import io.netty.buffer.Unpooled;
import java.util.Optional;
import org.scache.common.auth.FrameSigner;

/**
 * A message as received: its request id, its auth tag if signed, and the length of the payload
 * that follows as {@link PayloadChunk}s. {@link #verify} checks the tag against a secret.
 */
public record InboundFrame(long requestId, Message message, Optional<AuthTag> auth, long payloadLength) {

  /** The signer's principal and proof, with the signed metadata bytes needed to check it. */
  public record AuthTag(String principal, byte[] proof, byte[] signedMeta) {}

  /** Whether this frame carries a tag for {@code principal} made with {@code secret}. */
  public boolean verify(String principal, byte[] secret) {
    if (auth.isEmpty() || !auth.get().principal().equals(principal)) {
      return false;
    }
    AuthTag tag = auth.get();
    return FrameSigner.verify(secret, tag.proof(), message.type().id(), requestId, payloadLength,
        Unpooled.wrappedBuffer(tag.signedMeta()));
  }
}
