package org.scache.common.network;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.scache.common.auth.RequestAuthorizer;
import org.scache.common.protocol.ChannelBinding;
import org.scache.common.protocol.FrameDecoder;
import org.scache.common.protocol.FrameEncoder;

/** A listening socket speaking the SCache frame protocol; each connection gets a handler from the factory. */
public final class ScacheServer implements AutoCloseable {
  private final EventLoopGroup boss;
  private final EventLoopGroup workers;
  private final Channel channel;
  private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();

  private final ConnectionLimiter limiter;

  private ScacheServer(EventLoopGroup boss, EventLoopGroup workers, Channel channel, ConnectionLimiter limiter) {
    this.boss = boss;
    this.workers = workers;
    this.channel = channel;
    this.limiter = limiter;
  }

  /** Binds {@code host:port} (0 for any free port) and serves until closed. */
  public static ScacheServer start(String name, String host, int port, TransportSettings settings,
      Supplier<ChannelHandler> handlers) throws InterruptedException {
    return start(name, host, port, settings, handlers, RequestObserver.NONE);
  }

  /** As {@link #start(String, String, int, TransportSettings, Supplier)}, telling {@code observer} of every answer. */
  public static ScacheServer start(String name, String host, int port, TransportSettings settings,
      Supplier<ChannelHandler> handlers, RequestObserver observer) throws InterruptedException {
    return start(name, host, port, settings, null, handlers, observer);
  }

  /**
   * A daemon's server: every request passes {@code authorizer} (as its type declares who may send it)
   * before it reaches the handler {@code handlers} makes for its connection; {@code observer} is told
   * of every answer.
   */
  public static ScacheServer start(String name, String host, int port, TransportSettings settings,
      RequestAuthorizer authorizer, Supplier<ChannelHandler> handlers, RequestObserver observer)
      throws InterruptedException {
    EventLoopGroup boss = new NioEventLoopGroup(1, new DefaultThreadFactory(name + "-accept", true));
    EventLoopGroup workers = new NioEventLoopGroup(settings.ioThreads(), new DefaultThreadFactory(name + "-io", true));
    ConnectionLimiter limiter = new ConnectionLimiter(name, settings.maxConnections(),
        settings.maxConnectionsPerAddress());
    long idleMillis = settings.idleTimeout().toMillis();
    try {
      Channel ch = new ServerBootstrap().group(boss, workers).channel(NioServerSocketChannel.class)
          .option(ChannelOption.SO_REUSEADDR, true)
          .option(ChannelOption.SO_BACKLOG, 1024)
          .childOption(ChannelOption.TCP_NODELAY, true)
          .childOption(ChannelOption.SO_KEEPALIVE, true)
          .childHandler(new ChannelInitializer<SocketChannel>() {
            @Override
            protected void initChannel(SocketChannel c) {
              ChannelBinding binding = ChannelBinding.accepted();
              c.pipeline()
                  .addLast("idle", new IdleStateHandler(0, 0, idleMillis, TimeUnit.MILLISECONDS))
                  .addLast("decoder", new FrameDecoder(settings.maxMetaLength(), settings.maxPayloadLength(), binding))
                  .addLast("encoder", new FrameEncoder(settings.maxMetaLength()))
                  .addLast("limits", limiter)
                  .addLast("greeting", new ServerGreeting(binding))
                  .addLast("timer", new RequestTimer(observer));
              if (authorizer != null) {
                c.pipeline().addLast("authorize", new AuthorizationStage(authorizer));
              }
              c.pipeline().addLast("handler", handlers.get());
            }
          })
          .bind(host, port).sync().channel();
      return new ScacheServer(boss, workers, ch, limiter);
    } catch (InterruptedException | RuntimeException e) {
      boss.shutdownGracefully(0, 1, TimeUnit.SECONDS);
      workers.shutdownGracefully(0, 1, TimeUnit.SECONDS);
      throw e;
    }
  }

  /** Connections open now. */
  public int openConnections() {
    return limiter.open();
  }

  /** Connections refused at a limit, and closed for being idle, since the server started. */
  public long refusedConnections() {
    return limiter.refused();
  }

  public long idleConnectionsClosed() {
    return limiter.closedIdle();
  }

  public int port() {
    return ((InetSocketAddress) channel.localAddress()).getPort();
  }

  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    channel.close().syncUninterruptibly();
    boss.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
  }
}
