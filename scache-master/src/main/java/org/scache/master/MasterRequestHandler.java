package org.scache.master;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import java.net.InetSocketAddress;
import java.util.Optional;
import java.util.function.Supplier;
import org.scache.common.ScacheException;
import org.scache.common.network.RequestDispatcher;
import org.scache.common.protocol.InboundFrame;
import org.scache.common.protocol.Status;

/**
 * Serves connections to the master, over the term that leads. Requests reach it authorized (the
 * server's {@code AuthorizationStage}: worker traffic signed with the cluster secret, application
 * requests with the application's secret or the cluster's, when a worker forwards them).
 */
@ChannelHandler.Sharable
final class MasterRequestHandler extends RequestDispatcher {
  private final Supplier<Optional<MasterTerm>> leading;

  /** Serves over the term {@code leading} gives, and answers NOT_LEADER while it gives none. */
  MasterRequestHandler(Supplier<Optional<MasterTerm>> leading) {
    this.leading = leading;
  }

  @Override
  protected void onRequest(ChannelHandlerContext ctx, InboundFrame frame) {
    MasterTerm term = leading.get().orElseThrow(() -> new ScacheException(Status.NOT_LEADER,
        "this master does not lead; find the leader in ZooKeeper"));
    long id = frame.requestId();
    term.requests.answer(frame.message(), peerHost(ctx)).whenComplete((answer, e) -> {
      if (e != null) {
        replyError(ctx, id, e);
      } else {
        reply(ctx, id, answer);
      }
    });
  }

  private static String peerHost(ChannelHandlerContext ctx) {
    return ctx.channel().remoteAddress() instanceof InetSocketAddress a ? a.getAddress() != null
        ? a.getAddress().getHostAddress() : a.getHostString() : String.valueOf(ctx.channel().remoteAddress());
  }
}
