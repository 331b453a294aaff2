package org.scache.common.network;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.timeout.IdleState;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.AttributeKey;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import org.scache.common.RateLimitedLog;
import org.scache.common.protocol.ErrorAnswer;
import org.scache.common.protocol.OutboundFrame;
import org.scache.common.protocol.Status;

/**
 * Bounds the connections one server keeps open: in all, per remote address, and per remote address
 * those not yet authenticated (no request whose proof verified has passed on them). Unauthenticated
 * connections never keep a newcomer out: at any of the limits the oldest unauthenticated connection
 * there (from the address, or on the server) is answered {@link Status#LIMIT_EXCEEDED} and closed to
 * make room. Only when every connection there has authenticated is the newcomer answered
 * {@code LIMIT_EXCEEDED} instead of the greeting and closed. So connections that never prove anything
 * cannot take the slots an address's own tasks need. Also closes connections its pipeline's
 * idle-state handlers report idle. One instance per server.
 */
@ChannelHandler.Sharable
final class ConnectionLimiter extends ChannelInboundHandlerAdapter {
  /** The pipeline name of the handler that closes unauthenticated connections early; removed on authentication. */
  static final String UNAUTHENTICATED_IDLE = "unauthenticated-idle";
  private static final AttributeKey<InetAddress> COUNTED = AttributeKey.valueOf("scache.connection.counted");

  /** Connections open from one address, and those of them not authenticated, oldest first. */
  private static final class FromAddress {
    int all;
    final LinkedHashSet<Channel> unauthenticated = new LinkedHashSet<>();
  }

  private final String role;
  private final int max;
  private final int perAddress;
  private final int unauthenticatedPerAddress;
  /** Guarded by this. */
  private int open;
  /** Guarded by this; oldest first. */
  private final LinkedHashSet<Channel> unauthenticated = new LinkedHashSet<>();
  /** Guarded by this. */
  private final Map<InetAddress, FromAddress> byAddress = new HashMap<>();
  private final LongAdder refused = new LongAdder();
  private final LongAdder evicted = new LongAdder();
  private final LongAdder closedIdle = new LongAdder();
  private final RateLimitedLog log = RateLimitedLog.of(ConnectionLimiter.class);

  ConnectionLimiter(String role, int max, int perAddress, int unauthenticatedPerAddress) {
    this.role = role;
    this.max = max;
    this.perAddress = perAddress;
    this.unauthenticatedPerAddress = unauthenticatedPerAddress;
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) throws Exception {
    Channel channel = ctx.channel();
    InetAddress address = addressOf(channel.remoteAddress());
    // a server that asks no proofs has no unauthenticated connections
    boolean asksProof = ctx.pipeline().get(AuthorizationStage.class) != null;
    String refusal = null;
    Channel evict = null;
    String evictWhy = null;
    synchronized (this) {
      FromAddress from = byAddress.computeIfAbsent(address, a -> new FromAddress());
      if (from.all >= perAddress) {
        evict = oldest(from.unauthenticated);
        evictWhy = "this " + role + " has " + perAddress + " connections open from " + address.getHostAddress()
            + ", its limit per address (scache.network.server.connections.per.address.max), and this one had "
            + "not authenticated";
        refusal = evict == null ? "this " + role + " has " + perAddress + " connections open from "
            + address.getHostAddress() + ", all authenticated, its limit per address "
            + "(scache.network.server.connections.per.address.max)" : null;
      } else if (open >= max) {
        evict = oldest(unauthenticated);
        evictWhy = "this " + role + " has " + max + " connections open, its limit "
            + "(scache.network.server.connections.max), and this one had not authenticated";
        refusal = evict == null ? "this " + role + " has " + max + " connections open, all authenticated, its "
            + "limit (scache.network.server.connections.max)" : null;
      } else if (asksProof && from.unauthenticated.size() >= unauthenticatedPerAddress) {
        evict = oldest(from.unauthenticated);
        evictWhy = "this " + role + " has " + unauthenticatedPerAddress + " connections open from "
            + address.getHostAddress() + " that have not authenticated, its limit per address "
            + "(scache.network.server.connections.unauthenticated.per.address.max)";
      }
      if (evict != null) {
        release(evict);
      }
      if (refusal == null) {
        // the eviction may have emptied the address's entry
        from = byAddress.computeIfAbsent(address, a -> new FromAddress());
        open++;
        from.all++;
        if (asksProof) {
          from.unauthenticated.add(channel);
          unauthenticated.add(channel);
        }
        channel.attr(COUNTED).set(address);
      } else if (from.all == 0) {
        byAddress.remove(address);
      }
    }
    if (evict != null) {
      evicted.increment();
      log.warn("closed a connection from {} to make room for a new one: {}", evict.remoteAddress(), evictWhy);
      evict.writeAndFlush(OutboundFrame.of(0, new ErrorAnswer(Status.LIMIT_EXCEEDED, evictWhy)))
          .addListener(ChannelFutureListener.CLOSE);
    }
    if (refusal != null) {
      refused.increment();
      log.warn("refused a connection from {}: {}", channel.remoteAddress(), refusal);
      ctx.writeAndFlush(OutboundFrame.of(0, new ErrorAnswer(Status.LIMIT_EXCEEDED, refusal)))
          .addListener(ChannelFutureListener.CLOSE);
    } else {
      super.channelActive(ctx);
    }
  }

  private static Channel oldest(LinkedHashSet<Channel> channels) {
    Iterator<Channel> it = channels.iterator();
    return it.hasNext() ? it.next() : null;
  }

  /** Stops counting {@code channel}, if it is counted. Called holding this. */
  private void release(Channel channel) {
    InetAddress address = channel.attr(COUNTED).getAndSet(null);
    if (address == null) {
      return;
    }
    open--;
    unauthenticated.remove(channel);
    FromAddress from = byAddress.get(address);
    if (from != null) {
      from.all--;
      from.unauthenticated.remove(channel);
      if (from.all <= 0) {
        byAddress.remove(address);
      }
    }
  }

  /**
   * {@code channel} has authenticated: it no longer counts against its address's unauthenticated
   * limit, is never closed to make room, and only the server's idle timeout closes it. Called on its
   * event loop.
   */
  void authenticated(Channel channel) {
    boolean was;
    synchronized (this) {
      InetAddress address = channel.attr(COUNTED).get();
      was = unauthenticated.remove(channel);
      FromAddress from = address == null ? null : byAddress.get(address);
      if (from != null) {
        from.unauthenticated.remove(channel);
      }
    }
    if (was && channel.pipeline().get(UNAUTHENTICATED_IDLE) != null) {
      channel.pipeline().remove(UNAUTHENTICATED_IDLE);
    }
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    synchronized (this) {
      release(ctx.channel());
    }
    super.channelInactive(ctx);
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
    if (evt instanceof IdleStateEvent idle) {
      if (idle.state() == IdleState.READER_IDLE && !ctx.channel().config().isAutoRead()) {
        // not read because the server stopped reading it (a verdict waits): not the peer's silence
        return;
      }
      closedIdle.increment();
      ctx.close();
    } else {
      super.userEventTriggered(ctx, evt);
    }
  }

  /** Connections open now. */
  synchronized int open() {
    return open;
  }

  /** Connections open now that have not authenticated. */
  synchronized int unauthenticated() {
    return unauthenticated.size();
  }

  /** Connections refused at a limit, and unauthenticated ones closed to make room for a newcomer. */
  long refused() {
    return refused.sum() + evicted.sum();
  }

  long closedIdle() {
    return closedIdle.sum();
  }

  private static InetAddress addressOf(SocketAddress a) {
    return a instanceof InetSocketAddress isa ? isa.getAddress() : InetAddress.getLoopbackAddress();
  }
}
