package org.scache.metrics;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.scache.common.DaemonThreads;
import org.scache.common.RateLimitedLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A daemon's small HTTP server: GET (and HEAD) on a few fixed paths, answered by {@link Route}s, one
 * request per connection. Its own event loop reads requests and writes answers without ever waiting on a
 * peer, and its own few threads build answers, so a slow scrape never takes a thread from the data path and
 * a slow client never holds the endpoint: a request must arrive within the request timeout (else 408), an
 * idle connection is closed, and connections are bounded in all and per address ({@link HttpLimits}).
 * Anything else gets a plain-text error status; a route that fails answers 500 and the server goes on.
 */
public final class HttpEndpoint implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(HttpEndpoint.class);
  private static final RateLimitedLog FAILURES = RateLimitedLog.of(HttpEndpoint.class);
  /** Longest query string a route is given; longer ones are answered 414. */
  static final int MAX_QUERY_CHARS = 2048;
  /** Connections accepted by the kernel and not yet taken wait here. */
  private static final int BACKLOG = 64;

  /** Answers one request. */
  @FunctionalInterface
  public interface Route {
    Response serve(Map<String, String> query) throws IOException;
  }

  /** An answer: status code, content type and body. */
  public record Response(int status, String contentType, byte[] body) {
    public static Response text(int status, String text) {
      return new Response(status, "text/plain; charset=utf-8", text.getBytes(StandardCharsets.UTF_8));
    }

    public static Response html(String html) {
      return new Response(200, "text/html; charset=utf-8", html.getBytes(StandardCharsets.UTF_8));
    }
  }

  private final AtomicBoolean closed = new AtomicBoolean();
  private final Channel server;
  private final EventLoopGroup loop;
  private final ThreadPoolExecutor threads;
  private final HttpConnectionLimiter limiter;

  private HttpEndpoint(Channel server, EventLoopGroup loop, ThreadPoolExecutor threads,
      HttpConnectionLimiter limiter) {
    this.server = server;
    this.loop = loop;
    this.threads = threads;
    this.limiter = limiter;
  }

  /** {@link #start(String, String, int, HttpLimits, Map)} with the default limits. */
  public static Optional<HttpEndpoint> start(String name, String host, int port, Map<String, Route> routes) {
    return start(name, host, port, HttpLimits.defaults(), routes);
  }

  /**
   * Serves {@code routes} (by exact path) on {@code host:port} within {@code limits}: empty when
   * {@code port} is negative, or when the port cannot be bound, which is logged: the daemon serves
   * blocks either way.
   */
  public static Optional<HttpEndpoint> start(String name, String host, int port, HttpLimits limits,
      Map<String, Route> routes) {
    if (port < 0) {
      return Optional.empty();
    }
    Map<String, Route> copy = new LinkedHashMap<>(routes);
    EventLoopGroup loop = new NioEventLoopGroup(1, new DefaultThreadFactory(name + "-http-io", true));
    ThreadPoolExecutor threads = new ThreadPoolExecutor(limits.threads(), limits.threads(), 0, TimeUnit.SECONDS,
        new ArrayBlockingQueue<>(limits.queuedRequests()), DaemonThreads.named(name + "-http"));
    HttpConnectionLimiter limiter = new HttpConnectionLimiter(limits.maxConnections(),
        limits.maxConnectionsPerAddress());
    long idleMillis = limits.idleTimeout().toMillis();
    Channel server;
    try {
      server = new ServerBootstrap().group(loop).channel(NioServerSocketChannel.class)
          .option(ChannelOption.SO_BACKLOG, BACKLOG)
          .childOption(ChannelOption.TCP_NODELAY, true)
          .childHandler(new ChannelInitializer<SocketChannel>() {
            @Override
            protected void initChannel(SocketChannel c) {
              c.pipeline()
                  .addLast("idle", new IdleStateHandler(true, 0, 0, idleMillis, TimeUnit.MILLISECONDS) {
                    @Override
                    protected void channelIdle(ChannelHandlerContext ctx, IdleStateEvent e) {
                      ctx.close();
                    }
                  })
                  .addLast("limits", limiter)
                  .addLast("request", new HttpRequestReader(limits.requestTimeout(), threads,
                      request -> handle(request, copy)));
            }
          })
          .bind(new InetSocketAddress(host, port)).syncUninterruptibly().channel();
    } catch (Exception e) {
      // Netty throws the bind's IOException without declaring it
      LOG.warn("{} serves no status page or metrics: cannot listen on {}:{} ({})", name, host, port, e.toString());
      loop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
      threads.shutdownNow();
      return Optional.empty();
    }
    HttpEndpoint endpoint = new HttpEndpoint(server, loop, threads, limiter);
    LOG.info("{} serves its status and metrics on http://{}:{}/", name, host, endpoint.port());
    return Optional.of(endpoint);
  }

  public int port() {
    return ((InetSocketAddress) server.localAddress()).getPort();
  }

  /** Connections open now. */
  int openConnections() {
    return limiter.open();
  }

  private static Response handle(HttpRequestHead request, Map<String, Route> routes) {
    try {
      return answer(request.method(), request.target(), routes);
    } catch (RuntimeException | IOException e) {
      FAILURES.warn("HTTP {} {} failed", request.method(), request.target(), e);
      return Response.text(500, "internal error: " + e + "\n");
    }
  }

  private static Response answer(String method, URI target, Map<String, Route> routes) throws IOException {
    if (!"GET".equals(method) && !"HEAD".equals(method)) {
      return Response.text(405, method + " is not served; use GET\n");
    }
    Route route = routes.get(target.getPath());
    if (route == null) {
      return Response.text(404, "no page at " + target.getPath() + "; pages: "
          + String.join(", ", routes.keySet()) + "\n");
    }
    String raw = target.getRawQuery();
    if (raw != null && raw.length() > MAX_QUERY_CHARS) {
      return Response.text(414, "query longer than " + MAX_QUERY_CHARS + " characters\n");
    }
    Map<String, String> query;
    try {
      query = parseQuery(raw);
    } catch (IllegalArgumentException e) {
      return Response.text(400, "bad query: " + e.getMessage() + "\n");
    }
    return route.serve(query);
  }

  static Map<String, String> parseQuery(String raw) {
    Map<String, String> query = new LinkedHashMap<>();
    if (raw == null || raw.isEmpty()) {
      return query;
    }
    for (String pair : raw.split("&")) {
      int eq = pair.indexOf('=');
      String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
      String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
      query.putIfAbsent(key, value);
    }
    return query;
  }

  /** Stops serving; again is a no-op (a daemon may be closed by its owner and then by its shutdown hook). */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    server.close().syncUninterruptibly();
    loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    threads.shutdownNow();
  }
}
