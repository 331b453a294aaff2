package org.scache.common.network;

import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.AttributeKey;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.scache.common.RateLimitedLog;
import org.scache.common.protocol.ErrorAnswer;
import org.scache.common.protocol.OutboundFrame;
import org.scache.common.protocol.Status;

/**
 * Bounds the connections one server keeps open, in all and per remote address: a connection past
 * either limit is answered {@link Status#LIMIT_EXCEEDED} instead of the greeting and closed. Also
 * closes connections its pipeline's idle-state handler reports idle. One instance per server.
 */
@ChannelHandler.Sharable
final class ConnectionLimiter extends ChannelInboundHandlerAdapter {
  private static final AttributeKey<InetAddress> ADDRESS = AttributeKey.valueOf("scache.remote.address");
  private final String role;
  private final int max;
  private final int perAddress;
  private final AtomicInteger open = new AtomicInteger();
  private final Map<InetAddress, AtomicInteger> byAddress = new ConcurrentHashMap<>();
  private final LongAdder refused = new LongAdder();
  private final LongAdder closedIdle = new LongAdder();
  private final RateLimitedLog log = RateLimitedLog.of(ConnectionLimiter.class);

  ConnectionLimiter(String role, int max, int perAddress) {
    this.role = role;
    this.max = max;
    this.perAddress = perAddress;
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) throws Exception {
    int all = open.incrementAndGet();
    InetAddress address = addressOf(ctx.channel().remoteAddress());
    ctx.channel().attr(ADDRESS).set(address);
    int fromAddress = byAddress.computeIfAbsent(address, a -> new AtomicInteger()).incrementAndGet();
    if (all > max) {
      refuse(ctx, "this " + role + " has " + max + " connections open, its limit "
          + "(scache.network.server.connections.max)");
    } else if (fromAddress > perAddress) {
      refuse(ctx, "this " + role + " has " + perAddress + " connections open from " + address.getHostAddress()
          + ", its limit per address (scache.network.server.connections.per.address.max)");
    } else {
      super.channelActive(ctx);
    }
  }

  private void refuse(ChannelHandlerContext ctx, String why) {
    refused.increment();
    log.warn("refused a connection from {}: {}", ctx.channel().remoteAddress(), why);
    ctx.writeAndFlush(OutboundFrame.of(0, new ErrorAnswer(Status.LIMIT_EXCEEDED, why)))
        .addListener(ChannelFutureListener.CLOSE);
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    InetAddress address = ctx.channel().attr(ADDRESS).getAndSet(null);
    if (address == null) {
      super.channelInactive(ctx);
      return;
    }
    open.decrementAndGet();
    byAddress.computeIfPresent(address, (a, n) -> n.decrementAndGet() <= 0 ? null : n);
    super.channelInactive(ctx);
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
    if (evt instanceof IdleStateEvent) {
      closedIdle.increment();
      ctx.close();
    } else {
      super.userEventTriggered(ctx, evt);
    }
  }

  /** Connections open now. */
  int open() {
    return open.get();
  }

  long refused() {
    return refused.sum();
  }

  long closedIdle() {
    return closedIdle.sum();
  }

  private static InetAddress addressOf(SocketAddress a) {
    return a instanceof InetSocketAddress isa ? isa.getAddress() : InetAddress.getLoopbackAddress();
  }
}
