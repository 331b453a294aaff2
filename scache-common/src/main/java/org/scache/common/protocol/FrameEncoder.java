package org.scache.common.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.EncoderException;
import io.netty.handler.codec.MessageToMessageEncoder;
import java.util.List;
import org.scache.common.auth.Credentials;
import org.scache.common.auth.FrameSigner;

/**
 * Writes an {@link OutboundFrame} as a header-and-metadata buffer followed by the untouched payload
 * buffer, so block data goes to the socket without a copy. Signs the frame when it has credentials.
 */
@ChannelHandler.Sharable
public final class FrameEncoder extends MessageToMessageEncoder<OutboundFrame> {
  private final int maxMetaLength;

  public FrameEncoder(int maxMetaLength) {
    this.maxMetaLength = maxMetaLength;
  }

  @Override
  protected void encode(ChannelHandlerContext ctx, OutboundFrame frame, List<Object> out) {
    ByteBuf payload = frame.payload();
    ByteBuf buf = ctx.alloc().buffer(256);
    try {
      writeFrameHead(frame, buf, maxMetaLength);
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

  /** Writes the header, the optional auth section and the metadata of {@code frame} to {@code buf}. */
  public static void writeFrameHead(OutboundFrame frame, ByteBuf buf, int maxMetaLength) {
    Message message = frame.message();
    int typeId = message.type().id();
    long payloadLength = frame.payload().readableBytes();
    int start = buf.writerIndex();
    buf.writerIndex(start + Frames.HEADER_LENGTH);
    int flags = 0;
    if (frame.credentials().isPresent()) {
      Credentials c = frame.credentials().get();
      ByteBuf meta = buf.alloc().buffer(128);
      try {
        MessageCodec.encode(message, meta);
        byte[] proof = FrameSigner.sign(c, typeId, frame.requestId(), payloadLength, meta);
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
