package org.scache.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.Test;

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
