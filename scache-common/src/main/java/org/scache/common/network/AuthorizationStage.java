package org.scache.common.network;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import org.scache.common.ScacheException;
import org.scache.common.auth.RequestAuthorizer;
import org.scache.common.protocol.ChannelBinding;
import org.scache.common.protocol.InboundFrame;
import org.scache.common.protocol.MaySend;
import org.scache.common.protocol.PayloadChunk;
import org.scache.common.protocol.Status;

/**
 * The stage of a server connection's pipeline that lets a request through to its role only once the
 * {@link RequestAuthorizer} has allowed it. A refused request is answered with its error here, and its
 * payload dropped. While a verdict is pending (an application's secret is being fetched), everything
 * the connection sends after the request waits, its payload included, so requests reach the role in
 * the order they were sent and no byte of a put is stored before the put is allowed; and the
 * connection is not read meanwhile ({@link ReadGate}), so what waits is at most what the last read had
 * brought. A request whose proof verified moves the connection's sequence floor ({@link ChannelBinding});
 * the first one marks the connection authenticated. State is confined to the connection's event loop.
 */
final class AuthorizationStage extends ChannelInboundHandlerAdapter {
  /** This stage's reason to hold the connection unread ({@link ReadGate}). */
  private static final String VERDICT_PENDING = "a verdict waits";

  private final RequestAuthorizer authorizer;
  private final ChannelBinding binding;
  private final Runnable onAuthenticated;
  /** What arrived while a verdict was pending, in order. */
  private final ArrayDeque<Object> held = new ArrayDeque<>();
  private boolean waiting;
  /** The payload of the last request is dropped: the request was refused. */
  private boolean dropping;
  private boolean closed;
  private boolean authenticated;

  /**
   * @param binding the connection's binding, whose sequence floor a verified request moves
   * @param onAuthenticated told once, when the first request whose proof verified passes
   */
  AuthorizationStage(RequestAuthorizer authorizer, ChannelBinding binding, Runnable onAuthenticated) {
    this.authorizer = authorizer;
    this.binding = binding;
    this.onAuthenticated = onAuthenticated;
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
        pauseReading(ctx);
        verdict.whenCompleteAsync((v, e) -> {
          waiting = false;
          if (closed) {
            return;
          }
          settle(ctx, frame, verdict);
          while (!waiting && !held.isEmpty()) {
            pass(ctx, held.poll());
          }
          if (!waiting) {
            resumeReading(ctx);
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
      refuse(ctx, frame, refused);
      return;
    }
    if (frame.auth().isPresent() && provesSender(frame.message().type().maySend())) {
      long sequence = frame.auth().get().sequence();
      if (!binding.admit(sequence)) {
        refuse(ctx, frame, new ScacheException(Status.AUTH_FAILED, frame.message().type() + " is a replay: its "
            + "sequence " + sequence + " is not above those already taken on this connection"));
        return;
      }
      if (!authenticated) {
        authenticated = true;
        onAuthenticated.run();
      }
    }
    ctx.fireChannelRead(frame);
  }

  private void refuse(ChannelHandlerContext ctx, InboundFrame frame, Throwable why) {
    dropping = frame.payloadLength() > 0;
    RequestDispatcher.replyError(ctx, frame.requestId(), why);
  }

  /** Whether an allowed request of a type its senders are declared for has had its proof verified. */
  private static boolean provesSender(MaySend senders) {
    return switch (senders) {
      case CLUSTER, APPLICATION_OR_CLUSTER, REGISTERING_APPLICATION -> true;
      case HOLDER, ANYONE, NOBODY -> false;
    };
  }

  private void pauseReading(ChannelHandlerContext ctx) {
    ReadGate.of(ctx.channel()).pause(VERDICT_PENDING);
  }

  private void resumeReading(ChannelHandlerContext ctx) {
    ReadGate.of(ctx.channel()).resume(VERDICT_PENDING);
  }

  /** Messages waiting for a verdict now. */
  int held() {
    return held.size();
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    closed = true;
    held.forEach(ReferenceCountUtil::release);
    held.clear();
    super.channelInactive(ctx);
  }
}
