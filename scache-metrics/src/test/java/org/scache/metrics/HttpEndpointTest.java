package org.scache.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.scache.common.testing.Await;

@Timeout(60)
class HttpEndpointTest {
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @Test
  void routesAnswer_unknownPathsAndMethodsGetErrors_andAFailingRouteLeavesTheServerServing() throws Exception {
    Map<String, HttpEndpoint.Route> routes = Map.of(
        "/hello", q -> HttpEndpoint.Response.text(200, "hello " + q.getOrDefault("name", "?")),
        "/broken", q -> {
          throw new IllegalStateException("boom");
        });
    try (HttpEndpoint endpoint = HttpEndpoint.start("test", "127.0.0.1", 0, routes).orElseThrow()) {
      String base = "http://127.0.0.1:" + endpoint.port();
      assertEquals("hello caf\u00e9 & co", get(base + "/hello?name=caf%C3%A9+%26+co").body());
      assertEquals(404, get(base + "/nope").statusCode());
      assertEquals(500, get(base + "/broken").statusCode());
      HttpResponse<String> put = HTTP.send(HttpRequest.newBuilder(URI.create(base + "/hello"))
          .PUT(HttpRequest.BodyPublishers.ofString("x")).build(), HttpResponse.BodyHandlers.ofString());
      assertEquals(405, put.statusCode());
      assertEquals(414, get(base + "/hello?name=" + "x".repeat(HttpEndpoint.MAX_QUERY_CHARS)).statusCode());
      assertEquals(200, get(base + "/hello").statusCode(), "still serving");
    }
  }

  @Test
  void halfSentRequests_neitherHoldTheEndpoint_norStayOpen() throws Exception {
    HttpLimits limits = new HttpLimits(Duration.ofSeconds(3), Duration.ofSeconds(10), 64, 16, 2);
    Map<String, HttpEndpoint.Route> routes = Map.of("/hello", q -> HttpEndpoint.Response.text(200, "hello"));
    List<Socket> slow = new ArrayList<>();
    try (HttpEndpoint endpoint = HttpEndpoint.start("test", "127.0.0.1", 0, limits, routes).orElseThrow()) {
      for (int i = 0; i < 8; i++) {
        Socket s = connect("127.0.0.2", endpoint.port());
        slow.add(s);
        if (i % 2 == 0) {
          // a request line and a header, and never the blank line that ends them
          s.getOutputStream().write("GET /hello HTTP/1.1\r\nHost: x\r\n".getBytes(StandardCharsets.US_ASCII));
          s.getOutputStream().flush();
        }
      }
      Await.until(() -> endpoint.openConnections() == 8, Duration.ofSeconds(5), "slow connections accepted");
      long start = System.nanoTime();
      HttpResponse<String> answer = get("http://127.0.0.1:" + endpoint.port() + "/hello");
      long tookMillis = (System.nanoTime() - start) / 1_000_000;
      assertEquals(200, answer.statusCode());
      assertEquals("hello", answer.body());
      assertTrue(tookMillis < 2500, "answered in " + tookMillis + " ms, before any slow request timed out");

      for (Socket s : slow) {
        String rest = new String(s.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
        assertTrue(rest.startsWith("HTTP/1.1 408 "), rest);
      }
      Await.until(() -> endpoint.openConnections() == 0, Duration.ofSeconds(5), "slow connections closed");
    } finally {
      for (Socket s : slow) {
        s.close();
      }
    }
  }

  @Test
  void connectionsPastTheLimitPerAddress_areAnswered503_whileOtherAddressesAreServed() throws Exception {
    HttpLimits limits = new HttpLimits(Duration.ofSeconds(30), Duration.ofSeconds(30), 64, 3, 2);
    Map<String, HttpEndpoint.Route> routes = Map.of("/hello", q -> HttpEndpoint.Response.text(200, "hello"));
    List<Socket> held = new ArrayList<>();
    try (HttpEndpoint endpoint = HttpEndpoint.start("test", "127.0.0.1", 0, limits, routes).orElseThrow()) {
      for (int i = 0; i < 3; i++) {
        held.add(connect("127.0.0.3", endpoint.port()));
      }
      Await.until(() -> endpoint.openConnections() == 3, Duration.ofSeconds(5), "connections accepted");
      Socket past = connect("127.0.0.3", endpoint.port());
      held.add(past);
      String refused = new String(past.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
      assertTrue(refused.startsWith("HTTP/1.1 503 "), refused);
      assertTrue(refused.contains("scache.network.http.connections.per.address.max"), refused);
      assertEquals(200, get("http://127.0.0.1:" + endpoint.port() + "/hello").statusCode());
    } finally {
      for (Socket s : held) {
        s.close();
      }
    }
  }

  @Test
  void aRequestLargerThanItsLimit_orNotHttp_isRefused_andHeadAnswersHeadersOnly() throws Exception {
    Map<String, HttpEndpoint.Route> routes = Map.of("/hello", q -> HttpEndpoint.Response.text(200, "hello"));
    try (HttpEndpoint endpoint = HttpEndpoint.start("test", "127.0.0.1", 0, routes).orElseThrow()) {
      assertTrue(exchange(endpoint, "GET /hello HTTP/1.1\r\nX: " + "y".repeat(HttpRequestReader.MAX_HEAD_BYTES)
          + "\r\n\r\n").startsWith("HTTP/1.1 431 "));
      assertTrue(exchange(endpoint, "hello there\r\n\r\n").startsWith("HTTP/1.1 400 "));
      String head = exchange(endpoint, "HEAD /hello HTTP/1.1\r\nHost: x\r\n\r\n");
      assertTrue(head.startsWith("HTTP/1.1 200 OK\r\n"), head);
      assertTrue(head.contains("Content-Length: 5\r\n"), head);
      assertTrue(head.endsWith("\r\n\r\n"), "no body: " + head);
    }
  }

  private static String exchange(HttpEndpoint endpoint, String request) throws IOException {
    try (Socket s = connect("127.0.0.1", endpoint.port())) {
      s.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
      s.getOutputStream().flush();
      return new String(s.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
    }
  }

  private static Socket connect(String source, int port) throws IOException {
    Socket s = new Socket();
    s.bind(new InetSocketAddress(source, 0));
    s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
    s.setSoTimeout(15_000);
    return s;
  }

  @Test
  void negativePort_servesNothing_andATakenPortIsSkipped() throws IOException {
    assertTrue(HttpEndpoint.start("test", "127.0.0.1", -1, Map.of()).isEmpty());
    try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
      assertTrue(HttpEndpoint.start("test", "127.0.0.1", taken.getLocalPort(), Map.of()).isEmpty());
    }
  }

  @Test
  void query_isDecoded_firstValueWins() {
    assertEquals(Map.of("a", "1 2", "b", ""), HttpEndpoint.parseQuery("a=1+2&b&a=3"));
  }

  private static HttpResponse<String> get(String url) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
  }
}
