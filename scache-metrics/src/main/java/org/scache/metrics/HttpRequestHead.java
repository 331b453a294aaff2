package org.scache.metrics;

import java.net.URI;
import java.net.URISyntaxException;

/**
 * A request's line as an HTTP endpoint needs it: its method and its target. Headers are read past,
 * not kept: every route answers from the path and query alone, and every connection is closed after
 * its one answer.
 */
record HttpRequestHead(String method, URI target) {

  /**
   * Reads the request line at the start of {@code head} (the request's line and headers, up to the
   * blank line that ends them); fails with a message for the peer when it is not one.
   */
  static HttpRequestHead parse(String head) {
    int end = head.indexOf('\n');
    String line = (end < 0 ? head : head.substring(0, end)).strip();
    String[] parts = line.split(" ");
    if (parts.length != 3 || parts[0].isEmpty() || !parts[2].startsWith("HTTP/1.")) {
      throw new IllegalArgumentException("not an HTTP/1 request line");
    }
    for (char c : parts[0].toCharArray()) {
      if (c < 'A' || c > 'Z') {
        throw new IllegalArgumentException("not a method: " + parts[0]);
      }
    }
    URI target;
    try {
      target = new URI(parts[1]);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("not a request target: " + e.getMessage());
    }
    if (target.getRawPath() == null || !target.getRawPath().startsWith("/")) {
      throw new IllegalArgumentException("a request target is a path: " + parts[1]);
    }
    return new HttpRequestHead(parts[0], target);
  }
}
