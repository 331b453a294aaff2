package org.scache.common.protocol;

import java.util.Optional;
import java.util.function.Supplier;
import org.scache.common.auth.Credentials;
import org.scache.common.auth.FrameSigner;

/**
 * Writes what goes before a frame's payload: the fixed header, the auth section of a signed frame,
 * and the message's metadata. Plain Java, for both the event-loop encoder ({@link FrameEncoder})
 * and the blocking connection, so that every frame is written by the same code.
 */
public final class FrameHead {
  private static final byte[] NO_DIGEST = new byte[0];

  private FrameHead() {}

  /**
   * Appends the head of a frame to {@code out}. A signed frame takes the next sequence number of
   * {@code binding}, whose nonce it covers, and carries the payload's digest from {@code payloadDigest}
   * when it has a payload and the connection digests payloads.
   *
   * @throws IllegalArgumentException the message carries no payload but one is given, or its
   *     metadata is longer than {@code maxMetaLength}
   * @throws IllegalStateException the frame is to be signed but the connection has no nonce yet
   */
  public static void write(long requestId, Message message, Optional<Credentials> credentials, long payloadLength,
      Supplier<byte[]> payloadDigest, int maxMetaLength, ChannelBinding binding, WireBuffer out) {
    int typeId = message.type().id();
    if (payloadLength > 0 && !message.type().carriesPayload()) {
      throw new IllegalArgumentException(message.type() + " carries no payload");
    }
    int start = out.length();
    out.skipTo(start + Frames.HEADER_LENGTH);
    int flags = 0;
    if (credentials.isPresent()) {
      Credentials c = credentials.get();
      if (binding == null || !binding.knowsNonce()) {
        throw new IllegalStateException("cannot sign " + message.type()
            + ": the connection has no nonce from its peer");
      }
      WireBuffer meta = new WireBuffer(128);
      meta.writeLong(binding.nextSequence());
      byte[] digest = payloadLength > 0 && binding.digestsPayloads() ? payloadDigest.get() : NO_DIGEST;
      meta.writeByte(digest.length);
      meta.writeBytes(digest);
      MessageCodec.encode(message, meta);
      byte[] proof = FrameSigner.sign(c, typeId, requestId, payloadLength, binding.nonce(), meta.asByteBuffer());
      new WireWriter(out).writeString(c.principal()).writeByte(proof.length);
      out.writeBytes(proof);
      out.writeBytes(meta.array(), 0, meta.length());
      flags |= Frames.FLAG_AUTH;
    } else {
      MessageCodec.encode(message, out);
    }
    int metaLength = out.length() - start - Frames.HEADER_LENGTH;
    if (metaLength > maxMetaLength) {
      throw new IllegalArgumentException(message.type() + " metadata of " + metaLength
          + " bytes exceeds the limit of " + maxMetaLength);
    }
    out.setInt(start, Frames.MAGIC);
    out.setByte(start + 4, Frames.VERSION);
    out.setByte(start + 5, typeId);
    out.setShort(start + 6, flags);
    out.setLong(start + 8, requestId);
    out.setInt(start + 16, metaLength);
    out.setLong(start + 20, payloadLength);
  }
}
