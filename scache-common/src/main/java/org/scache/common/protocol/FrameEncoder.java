package org.scache.common.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.EncoderException;
import io.netty.handler.codec.MessageToMessageEncoder;
import java.util.List;
import org.scache.common.auth.Credentials;
import org.scache.common.auth.FrameSigner;
import org.scache.common.auth.PayloadDigest;

/**
 * Writes an {@link OutboundFrame} as a header-and-metadata buffer followed by the untouched payload
 * buffer, so block data goes to the socket without a copy. Signs the frame when it has credentials,
 * bound to the connection ({@link ChannelBinding}): one encoder per connection.
 */
public final class FrameEncoder extends MessageToMessageEncoder<OutboundFrame> {
  private static final byte[] NO_DIGEST = new byte[0];
  private final int maxMetaLength;
  private final ChannelBinding binding;

  /** An encoder for the accepting side, which sends answers only and signs nothing. */
  public FrameEncoder(int maxMetaLength) {
    this(maxMetaLength, null);
  }

  /** An encoder that signs requests bound to {@code binding}. */
  public FrameEncoder(int maxMetaLength, ChannelBinding binding) {
    this.maxMetaLength = maxMetaLength;
    this.binding = binding;
  }

  @Override
  protected void encode(ChannelHandlerContext ctx, OutboundFrame frame, List<Object> out) {
    ByteBuf payload = frame.payload();
    ByteBuf buf = ctx.alloc().buffer(256);
    try {
      writeFrameHead(frame, buf, maxMetaLength, binding);
    } catch (RuntimeException e) {
      buf.release();
      payload.release();
      throw e instanceof EncoderException ? e : new EncoderException(e);
    }
    out.add(buf);
    if (payload.isReadable()) {
      out.add(payload);
    } else {
      payload.release();
    }
  }

  /**
   * Writes the header, the optional auth section and the metadata of {@code frame} to {@code buf};
   * a signed frame takes the next sequence number of {@code binding}, whose nonce it covers.
   */
  public static void writeFrameHead(OutboundFrame frame, ByteBuf buf, int maxMetaLength, ChannelBinding binding) {
    Message message = frame.message();
    int typeId = message.type().id();
    long payloadLength = frame.payload().readableBytes();
    int start = buf.writerIndex();
    buf.writerIndex(start + Frames.HEADER_LENGTH);
    int flags = 0;
    if (frame.credentials().isPresent()) {
      Credentials c = frame.credentials().get();
      if (binding == null || !binding.knowsNonce()) {
        throw new EncoderException("cannot sign " + message.type() + ": the connection has no nonce from its peer");
      }
      ByteBuf meta = buf.alloc().buffer(128);
      try {
        meta.writeLong(binding.nextSequence());
        byte[] digest = payloadLength > 0 && binding.digestsPayloads() ? PayloadDigest.of(frame.payload()) : NO_DIGEST;
        meta.writeByte(digest.length).writeBytes(digest);
        MessageCodec.encode(message, meta);
        byte[] proof = FrameSigner.sign(c, typeId, frame.requestId(), payloadLength, binding.nonce(), meta);
        new WireWriter(buf).writeString(c.principal()).writeByte(proof.length);
        buf.writeBytes(proof).writeBytes(meta);
      } finally {
        meta.release();
      }
      flags |= Frames.FLAG_AUTH;
    } else {
      MessageCodec.encode(message, buf);
    }
    int metaLength = buf.writerIndex() - start - Frames.HEADER_LENGTH;
    if (metaLength > maxMetaLength) {
      throw new EncoderException(message.type() + " metadata of " + metaLength + " bytes exceeds the limit of "
          + maxMetaLength);
    }
    buf.setInt(start, Frames.MAGIC);
    buf.setByte(start + 4, Frames.VERSION);
    buf.setByte(start + 5, typeId);
    buf.setShort(start + 6, flags);
    buf.setLong(start + 8, frame.requestId());
    buf.setInt(start + 16, metaLength);
    buf.setLong(start + 20, payloadLength);
  }
}
