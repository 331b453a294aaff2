package org.scache.common.network;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import org.scache.common.Checks;
import org.scache.common.ScacheException;
import org.scache.common.protocol.ChannelBinding;
import org.scache.common.protocol.FrameDecoder;
import org.scache.common.protocol.FrameEncoder;
import org.scache.common.protocol.Frames;
import org.scache.common.protocol.Status;

/**
 * Client connections to masters and workers, one per peer address, reused by every call and opened
 * again when broken. Owns the event loops the connections run on.
 */
public final class ConnectionPool implements ClientConnections {
  private final TransportSettings settings;
  private final EventLoopGroup group;
  private final Bootstrap bootstrap;
  private final IntSupplier receiveBufferBytes;
  private final Map<String, CompletableFuture<ScacheConnection>> connections = new ConcurrentHashMap<>();

  public ConnectionPool(TransportSettings settings, String threadName) {
    this(settings, threadName, 0);
  }

  /**
   * A pool whose connections have a receive buffer (SO_RCVBUF) of {@code receiveBufferBytes}, set before they
   * connect so that the window they offer follows it; 0 leaves the buffer to the kernel's autotuning.
   */
  public ConnectionPool(TransportSettings settings, String threadName, int receiveBufferBytes) {
    this(settings, threadName, fixed(receiveBufferBytes));
  }

  /**
   * A pool whose connections each get the receive buffer (SO_RCVBUF) {@code receiveBufferBytes} gives when they
   * are opened, set before they connect so that the window they offer follows it; 0 leaves the buffer to the
   * kernel's autotuning.
   */
  public ConnectionPool(TransportSettings settings, String threadName, IntSupplier receiveBufferBytes) {
    this.settings = settings;
    this.receiveBufferBytes = receiveBufferBytes;
    this.group = new NioEventLoopGroup(settings.ioThreads(), new DefaultThreadFactory(threadName, true));
    this.bootstrap = new Bootstrap().group(group).channel(NioSocketChannel.class)
        .option(ChannelOption.TCP_NODELAY, true)
        .option(ChannelOption.SO_KEEPALIVE, true)
        .option(ChannelOption.WRITE_BUFFER_WATER_MARK, settings.writeBufferWaterMark())
        .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) settings.connectTimeout().toMillis());
  }

  private static IntSupplier fixed(int receiveBufferBytes) {
    Checks.require(receiveBufferBytes >= 0, "a receive buffer cannot be negative: %s", receiveBufferBytes);
    return () -> receiveBufferBytes;
  }

  @Override
  public CompletableFuture<ScacheConnection> get(String host, int port) {
    String key = host + ":" + port;
    while (true) {
      CompletableFuture<ScacheConnection> f = connections.computeIfAbsent(key, k -> connect(host, port));
      if (!f.isDone() || (!f.isCompletedExceptionally() && f.join().isActive())) {
        return f;
      }
      connections.remove(key, f);
      if (f.isCompletedExceptionally()) {
        // report this failure to the caller; the next call tries to connect again
        return f;
      }
    }
  }

  private CompletableFuture<ScacheConnection> connect(String host, int port) {
    String peer = host + ":" + port;
    CompletableFuture<ScacheConnection> result = new CompletableFuture<>();
    ScacheConnection[] holder = new ScacheConnection[1];
    ChannelBinding binding = ChannelBinding.connecting(settings.payloadDigest());
    CompletableFuture<Void> greeted = new CompletableFuture<>();
    Bootstrap b = bootstrap.clone();
    int receiveBuffer = receiveBufferBytes.getAsInt();
    if (receiveBuffer > 0) {
      b.option(ChannelOption.SO_RCVBUF, receiveBuffer);
    }
    ChannelFuture cf = b.handler(new ChannelInitializer<SocketChannel>() {
      @Override
      protected void initChannel(SocketChannel ch) {
        ch.pipeline()
            .addLast("decoder", new FrameDecoder(settings.maxMetaLength(), settings.maxPayloadLength()))
            .addLast("encoder", new FrameEncoder(settings.maxMetaLength(), binding))
            .addLast("client", ScacheConnection.handlerFor(holder, binding, greeted));
      }
    }).connect(host, port);
    cf.addListener(f -> {
      if (f.isSuccess()) {
        holder[0] = new ScacheConnection(cf.channel(), peer);
        cf.channel().closeFuture().addListener(x -> greeted.completeExceptionally(new ScacheException(
            Status.CONNECTION_FAILED, "connection to " + peer + " closed before its greeting")));
        long waitMillis = settings.connectTimeout().toMillis();
        greeted.orTimeout(waitMillis, TimeUnit.MILLISECONDS).whenComplete((v, e) -> {
          if (e == null) {
            result.complete(holder[0]);
          } else {
            cf.channel().close();
            result.completeExceptionally(ScacheException.unwrap(e) instanceof java.util.concurrent.TimeoutException
                ? new ScacheException(Status.CONNECTION_FAILED, peer + " sent no greeting within " + waitMillis
                    + " ms of connecting: not an SCache daemon of protocol version " + Frames.VERSION + "?")
                : ScacheException.from(e));
          }
        });
      } else {
        result.completeExceptionally(new ScacheException(Status.CONNECTION_FAILED,
            "cannot connect to " + peer + ": " + f.cause().getMessage(), f.cause()));
      }
    });
    return result;
  }

  /** Closes the connection to {@code host:port}, if open; the next call opens a new one. */
  public void disconnect(String host, int port) {
    CompletableFuture<ScacheConnection> f = connections.remove(host + ":" + port);
    if (f != null) {
      f.thenAccept(ScacheConnection::close);
    }
  }

  @Override
  public void close() {
    connections.values().forEach(f -> f.thenAccept(ScacheConnection::close));
    connections.clear();
    group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
  }
}
