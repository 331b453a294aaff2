package org.scache.metrics;

import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.AttributeKey;
import io.netty.util.ReferenceCountUtil;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.scache.common.RateLimitedLog;

/**
 * Bounds the connections an HTTP endpoint keeps open, in all and per remote address: one past either
 * limit is answered 503 and closed, and nothing it sends is read. One instance per endpoint.
 */
@ChannelHandler.Sharable
final class HttpConnectionLimiter extends ChannelInboundHandlerAdapter {
  private static final AttributeKey<InetAddress> ADDRESS = AttributeKey.valueOf("scache.http.remote.address");
  private static final AttributeKey<Boolean> REFUSED = AttributeKey.valueOf("scache.http.refused");
  private static final RateLimitedLog LOG = RateLimitedLog.of(HttpConnectionLimiter.class);

  private final int max;
  private final int perAddress;
  private final AtomicInteger open = new AtomicInteger();
  private final Map<InetAddress, AtomicInteger> byAddress = new ConcurrentHashMap<>();

  HttpConnectionLimiter(int max, int perAddress) {
    this.max = max;
    this.perAddress = perAddress;
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) throws Exception {
    InetAddress address = ctx.channel().remoteAddress() instanceof InetSocketAddress isa ? isa.getAddress()
        : InetAddress.getLoopbackAddress();
    ctx.channel().attr(ADDRESS).set(address);
    int all = open.incrementAndGet();
    int fromAddress = byAddress.computeIfAbsent(address, a -> new AtomicInteger()).incrementAndGet();
    if (all > max || fromAddress > perAddress) {
      String why = all > max ? max + " connections open, the limit (scache.network.http.connections.max)"
          : perAddress + " connections open from " + address.getHostAddress()
              + ", the limit per address (scache.network.http.connections.per.address.max)";
      LOG.warn("refused an HTTP connection from {}: {}", ctx.channel().remoteAddress(), why);
      ctx.channel().attr(REFUSED).set(true);
      ctx.writeAndFlush(HttpAnswers.encode(ctx.alloc(), HttpEndpoint.Response.text(503, why + "\n"), false))
          .addListener(ChannelFutureListener.CLOSE);
    } else {
      super.channelActive(ctx);
    }
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
    if (Boolean.TRUE.equals(ctx.channel().attr(REFUSED).get())) {
      ReferenceCountUtil.release(msg);
    } else {
      super.channelRead(ctx, msg);
    }
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    InetAddress address = ctx.channel().attr(ADDRESS).getAndSet(null);
    if (address != null) {
      open.decrementAndGet();
      byAddress.computeIfPresent(address, (a, n) -> n.decrementAndGet() <= 0 ? null : n);
    }
    super.channelInactive(ctx);
  }

  /** Connections open now. */
  int open() {
    return open.get();
  }
}
