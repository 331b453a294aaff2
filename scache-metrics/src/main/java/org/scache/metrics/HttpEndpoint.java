package org.scache.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.scache.common.DaemonThreads;
import org.scache.common.RateLimitedLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A daemon's small HTTP server: GET (and HEAD) on a few fixed paths, answered by {@link Route}s, on
 * two threads of its own so that a slow scrape never takes a thread from the data path. Anything
 * else gets a plain-text error status; a route that fails answers 500 and the server goes on.
 */
public final class HttpEndpoint implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(HttpEndpoint.class);
  private static final RateLimitedLog FAILURES = RateLimitedLog.of(HttpEndpoint.class);
  /** Longest query string a route is given; longer ones are answered 414. */
  static final int MAX_QUERY_CHARS = 2048;

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

  private final HttpServer server;
  private final ExecutorService threads;

  private HttpEndpoint(HttpServer server, ExecutorService threads) {
    this.server = server;
    this.threads = threads;
  }

  /**
   * Serves {@code routes} (by exact path) on {@code host:port}: empty when {@code port} is negative, or
   * when the port cannot be bound, which is logged: the daemon serves blocks either way.
   */
  public static Optional<HttpEndpoint> start(String name, String host, int port, Map<String, Route> routes) {
    if (port < 0) {
      return Optional.empty();
    }
    HttpServer server;
    try {
      server = HttpServer.create(new InetSocketAddress(host, port), 64);
    } catch (IOException e) {
      LOG.warn("{} serves no status page or metrics: cannot listen on {}:{} ({})", name, host, port, e.toString());
      return Optional.empty();
    }
    Map<String, Route> copy = new LinkedHashMap<>(routes);
    server.createContext("/", exchange -> handle(exchange, copy));
    ExecutorService threads = Executors.newFixedThreadPool(2, DaemonThreads.named(name + "-http"));
    server.setExecutor(threads);
    server.start();
    HttpEndpoint endpoint = new HttpEndpoint(server, threads);
    LOG.info("{} serves its status and metrics on http://{}:{}/", name, host, endpoint.port());
    return Optional.of(endpoint);
  }

  public int port() {
    return server.getAddress().getPort();
  }

  private static void handle(HttpExchange exchange, Map<String, Route> routes) throws IOException {
    Response response;
    try {
      response = answer(exchange, routes);
    } catch (RuntimeException | IOException e) {
      FAILURES.warn("HTTP {} {} failed", exchange.getRequestMethod(), exchange.getRequestURI(), e);
      response = Response.text(500, "internal error: " + e + "\n");
    }
    boolean head = "HEAD".equals(exchange.getRequestMethod());
    exchange.getResponseHeaders().set("Content-Type", response.contentType());
    exchange.getResponseHeaders().set("Cache-Control", "no-store");
    exchange.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
    exchange.sendResponseHeaders(response.status(), head ? -1 : response.body().length);
    try (OutputStream out = exchange.getResponseBody()) {
      if (!head) {
        out.write(response.body());
      }
    } finally {
      exchange.close();
    }
  }

  private static Response answer(HttpExchange exchange, Map<String, Route> routes) throws IOException {
    String method = exchange.getRequestMethod();
    if (!"GET".equals(method) && !"HEAD".equals(method)) {
      return Response.text(405, method + " is not served; use GET\n");
    }
    Route route = routes.get(exchange.getRequestURI().getPath());
    if (route == null) {
      return Response.text(404, "no page at " + exchange.getRequestURI().getPath() + "; pages: "
          + String.join(", ", routes.keySet()) + "\n");
    }
    String raw = exchange.getRequestURI().getRawQuery();
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

  @Override
  public void close() {
    server.stop(0);
    threads.shutdownNow();
  }
}
