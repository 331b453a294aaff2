package org.scache.common.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.EncoderException;
import io.netty.handler.codec.MessageToMessageEncoder;
import java.util.List;
import org.scache.common.auth.PayloadDigest;

/**
 * Writes an {@link OutboundFrame} as a header-and-metadata buffer ({@link FrameHead}) followed by the
 * untouched payload buffer, so block data goes to the socket without a copy. Signs the frame when it has credentials,
 * bound to the connection ({@link ChannelBinding}): one encoder per connection.
 */
public final class FrameEncoder extends MessageToMessageEncoder<OutboundFrame> {
  private final int maxMetaLength;
  private final ChannelBinding binding;
  /** The head being written; the encoder runs on its connection's event loop only. */
  private final WireBuffer head = new WireBuffer(256);

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
    head.clear();
    try {
      FrameHead.write(frame.requestId(), frame.message(), frame.credentials(), payload.readableBytes(),
          () -> PayloadDigest.of(payload), maxMetaLength, binding, head);
    } catch (RuntimeException e) {
      payload.release();
      throw new EncoderException(e.getMessage(), e);
    }
    out.add(ctx.alloc().buffer(head.length()).writeBytes(head.array(), 0, head.length()));
    if (payload.isReadable()) {
      out.add(payload);
    } else {
      payload.release();
    }
  }
}
