package org.scache.common.network;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import org.scache.common.auth.RequestAuthorizer;
import org.scache.common.protocol.InboundFrame;
import org.scache.common.protocol.PayloadChunk;

/**
 * The stage of a server connection's pipeline that lets a request through to its role only once the
 * {@link RequestAuthorizer} has allowed it. A refused request is answered with its error here, and its
 * payload dropped. While a verdict is pending (an application's secret is being fetched), everything
 * the connection sends after the request waits, its payload included, so requests reach the role in
 * the order they were sent and no byte of a put is stored before the put is allowed. State is
 * confined to the connection's event loop.
 */
final class AuthorizationStage extends ChannelInboundHandlerAdapter {
  private final RequestAuthorizer authorizer;
  /** What arrived while a verdict was pending, in order. */
  private final ArrayDeque<Object> held = new ArrayDeque<>();
  private boolean waiting;
  /** The payload of the last request is dropped: the request was refused. */
  private boolean dropping;
  private boolean closed;

  AuthorizationStage(RequestAuthorizer authorizer) {
    this.authorizer = authorizer;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (waiting) {
      held.add(msg);
    } else {
      pass(ctx, msg);
    }
  }

  private void pass(ChannelHandlerContext ctx, Object msg) {
    if (msg instanceof InboundFrame frame) {
      dropping = false;
      CompletableFuture<Void> verdict = authorizer.authorize(frame);
      if (verdict.isDone()) {
        settle(ctx, frame, verdict);
      } else {
        waiting = true;
        verdict.whenCompleteAsync((v, e) -> {
          waiting = false;
          if (closed) {
            return;
          }
          settle(ctx, frame, verdict);
          while (!waiting && !held.isEmpty()) {
            pass(ctx, held.poll());
          }
        }, ctx.executor());
      }
    } else if (msg instanceof PayloadChunk chunk && dropping) {
      chunk.release();
    } else {
      ctx.fireChannelRead(msg);
    }
  }

  private void settle(ChannelHandlerContext ctx, InboundFrame frame, CompletableFuture<Void> verdict) {
    try {
      verdict.join();
    } catch (RuntimeException refused) {
      dropping = frame.payloadLength() > 0;
      RequestDispatcher.replyError(ctx, frame.requestId(), refused);
      return;
    }
    ctx.fireChannelRead(frame);
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    closed = true;
    held.forEach(ReferenceCountUtil::release);
    held.clear();
    super.channelInactive(ctx);
  }
}
