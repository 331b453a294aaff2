package org.scache.common.network;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFactory;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.internal.PlatformDependent;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.scache.common.Checks;
import org.scache.common.auth.RequestAuthorizer;
import org.scache.common.protocol.ChannelBinding;
import org.scache.common.protocol.FrameDecoder;
import org.scache.common.protocol.FrameEncoder;

/**
 * A listening socket speaking the SCache frame protocol; each connection gets a handler from the factory.
 * Started at once ({@link #start}), or bound first and served once its daemon's parts exist
 * ({@link #bind}, then {@link #serve}).
 */
public final class ScacheServer implements AutoCloseable {
  /** Connections accepted by the kernel while the server does not serve yet wait here. */
  private static final int BACKLOG = 1024;

  private final EventLoopGroup boss;
  private final EventLoopGroup workers;
  private final ServerSocketChannel socket;
  private final TransportSettings settings;
  private final AtomicBoolean closed = new AtomicBoolean();
  private final ConnectionLimiter limiter;
  /** The socket as Netty serves it, once {@link #serve} has run. */
  private volatile Channel channel;

  private ScacheServer(EventLoopGroup boss, EventLoopGroup workers, ServerSocketChannel socket,
      TransportSettings settings, ConnectionLimiter limiter) {
    this.boss = boss;
    this.workers = workers;
    this.socket = socket;
    this.settings = settings;
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
    ScacheServer server;
    try {
      server = bind(name, host, port, settings);
    } catch (IOException e) {
      // as Netty's own bind reports it: the BindException itself, unchecked
      PlatformDependent.throwException(e);
      throw new IllegalStateException(e);
    }
    try {
      server.serve(authorizer, handlers, observer);
      return server;
    } catch (InterruptedException | RuntimeException e) {
      server.close();
      throw e;
    }
  }

  /**
   * Binds {@code host:port} (0 for any free port) and accepts no connection yet: connections wait in
   * the socket's backlog until {@link #serve}. A daemon learns its port this way before the parts that
   * serve its requests exist.
   */
  public static ScacheServer bind(String name, String host, int port, TransportSettings settings)
      throws IOException {
    ServerSocketChannel socket = ServerSocketChannel.open();
    try {
      socket.setOption(StandardSocketOptions.SO_REUSEADDR, true);
      socket.bind(new InetSocketAddress(host, port), BACKLOG);
    } catch (IOException | RuntimeException e) {
      socket.close();
      throw e;
    }
    EventLoopGroup boss = new NioEventLoopGroup(1, new DefaultThreadFactory(name + "-accept", true));
    EventLoopGroup workers = new NioEventLoopGroup(settings.ioThreads(), new DefaultThreadFactory(name + "-io", true));
    ConnectionLimiter limiter = new ConnectionLimiter(name, settings.maxConnections(),
        settings.maxConnectionsPerAddress(), settings.maxUnauthenticatedPerAddress());
    return new ScacheServer(boss, workers, socket, settings, limiter);
  }

  /**
   * Starts accepting connections on the bound port: every request passes {@code authorizer} (none when
   * null), as its type declares who may send it, before it reaches the handler {@code handlers} makes
   * for its connection; {@code observer} is told of every answer. Called once.
   */
  public void serve(RequestAuthorizer authorizer, Supplier<ChannelHandler> handlers, RequestObserver observer)
      throws InterruptedException {
    Checks.requireState(channel == null && !closed.get(), "the server is serving already, or closed");
    long idleMillis = settings.idleTimeout().toMillis();
    long unauthenticatedIdleMillis = settings.unauthenticatedIdleTimeout().toMillis();
    channel = new ServerBootstrap().group(boss, workers)
        .channelFactory((ChannelFactory<NioServerSocketChannel>) () -> new NioServerSocketChannel(socket))
        .childOption(ChannelOption.TCP_NODELAY, true)
        .childOption(ChannelOption.SO_KEEPALIVE, true)
        .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, settings.writeBufferWaterMark())
        .childHandler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel c) {
            ChannelBinding binding = ChannelBinding.accepted();
            c.pipeline().addLast("idle", new IdleStateHandler(0, 0, idleMillis, TimeUnit.MILLISECONDS));
            if (authorizer != null) {
              // until a request proves its sender; removed by the limiter when one does
              c.pipeline().addLast(ConnectionLimiter.UNAUTHENTICATED_IDLE,
                  new IdleStateHandler(unauthenticatedIdleMillis, 0, 0, TimeUnit.MILLISECONDS));
            }
            c.pipeline()
                .addLast("decoder", new FrameDecoder(settings.maxMetaLength(), settings.maxPayloadLength(), binding))
                .addLast("encoder", new FrameEncoder(settings.maxMetaLength()))
                .addLast("limits", limiter)
                .addLast("greeting", new ServerGreeting(binding))
                .addLast("timer", new RequestTimer(observer));
            if (authorizer != null) {
              c.pipeline().addLast("authorize", new AuthorizationStage(authorizer, binding,
                  () -> limiter.authenticated(c)));
            }
            c.pipeline().addLast("handler", handlers.get());
          }
        })
        // the socket is bound already: registering it starts accepting
        .register().sync().channel();
  }

  /** Connections open now. */
  public int openConnections() {
    return limiter.open();
  }

  /** Connections open now on which no request whose proof verified has passed. */
  public int unauthenticatedConnections() {
    return limiter.unauthenticated();
  }

  /**
   * Connections refused at a limit or closed there to make room for a newcomer, and (below) closed for
   * being idle, since the server started.
   */
  public long refusedConnections() {
    return limiter.refused();
  }

  public long idleConnectionsClosed() {
    return limiter.closedIdle();
  }

  public int port() {
    try {
      return ((InetSocketAddress) socket.getLocalAddress()).getPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    Channel serving = channel;
    if (serving != null) {
      serving.close().syncUninterruptibly();
    } else {
      try {
        socket.close();
      } catch (IOException e) {
        // nothing was served on it
      }
    }
    boss.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
  }
}
