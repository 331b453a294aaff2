package org.scache.common.network;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.util.ReferenceCountUtil;
import java.util.Optional;
import org.scache.common.RateLimitedLog;
import org.scache.common.ScacheException;
import org.scache.common.protocol.DecodeFailure;
import org.scache.common.protocol.ErrorAnswer;
import org.scache.common.protocol.InboundFrame;
import org.scache.common.protocol.Message;
import org.scache.common.protocol.OutboundFrame;
import org.scache.common.protocol.PayloadChunk;
import org.scache.common.protocol.Status;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Server side of a connection: answers bad input with its error status (closing the connection
 * only when the stream cannot be followed), and hands requests and payload chunks to the role. A
 * role that writes large answers paces them with a {@link WhenWritable} of its own.
 */
public abstract class RequestDispatcher extends SimpleChannelInboundHandler<Object> {
  private static final Logger LOG = LoggerFactory.getLogger(RequestDispatcher.class);
  /** Bad input is the peer's to cause as often as it likes; its lines are rate limited across the daemon. */
  private static final RateLimitedLog BAD_INPUT = RateLimitedLog.of(RequestDispatcher.class);

  protected RequestDispatcher() {
    super(false);
  }

  @Override
  protected final void channelRead0(ChannelHandlerContext ctx, Object msg) {
    if (msg instanceof InboundFrame frame) {
      try {
        onRequest(ctx, frame);
      } catch (ScacheException e) {
        replyError(ctx, frame.requestId(), e.status(), e.detail());
      } catch (RuntimeException e) {
        BAD_INPUT.warn("{} from {} failed", frame.message().type(), ctx.channel().remoteAddress(), e);
        replyError(ctx, frame.requestId(), Status.INTERNAL_ERROR, e.toString());
      }
    } else if (msg instanceof PayloadChunk chunk) {
      onPayload(ctx, chunk);
    } else if (msg instanceof DecodeFailure failure) {
      BAD_INPUT.info("bad input from {}: {} {}", ctx.channel().remoteAddress(), failure.status(), failure.message());
      onBadFrame(ctx, failure);
      var f = ctx.writeAndFlush(OutboundFrame.of(failure.requestId(), new ErrorAnswer(failure.status(),
          failure.message())));
      if (failure.fatal()) {
        f.addListener(ChannelFutureListener.CLOSE);
      }
    } else {
      ReferenceCountUtil.release(msg);
    }
  }

  /** Handles one request; a thrown {@link ScacheException} becomes the error answer. */
  protected abstract void onRequest(ChannelHandlerContext ctx, InboundFrame frame);

  /** Handles a chunk of the payload of the last request; the default drops it. Must release it. */
  protected void onPayload(ChannelHandlerContext ctx, PayloadChunk chunk) {
    chunk.release();
  }

  /** Called before a bad frame is answered, so a role can drop state tied to it. */
  protected void onBadFrame(ChannelHandlerContext ctx, DecodeFailure failure) {}

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    LOG.debug("connection from {} failed: {}", ctx.channel().remoteAddress(), cause.toString());
    ctx.close();
  }

  public static void reply(ChannelHandlerContext ctx, long requestId, Message answer) {
    reply(ctx, requestId, answer, Unpooled.EMPTY_BUFFER);
  }

  /** Sends {@code answer} with {@code payload}, which the write releases. */
  public static void reply(ChannelHandlerContext ctx, long requestId, Message answer, ByteBuf payload) {
    ctx.writeAndFlush(new OutboundFrame(requestId, answer, Optional.empty(), payload));
  }

  public static void replyError(ChannelHandlerContext ctx, long requestId, Status status, String message) {
    ctx.writeAndFlush(OutboundFrame.of(requestId, new ErrorAnswer(status, message == null ? "" : message)));
  }

  /** Answers with the error inside {@code t}. */
  public static void replyError(ChannelHandlerContext ctx, long requestId, Throwable t) {
    ScacheException e = ScacheException.from(t);
    replyError(ctx, requestId, e.status(), e.detail());
  }
}
