package org.scache.metrics;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.charset.StandardCharsets;

/** Writes an HTTP/1.1 answer as bytes: every answer says how long it is and closes its connection. */
final class HttpAnswers {
  private HttpAnswers() {}

  /** {@code response} as bytes; for a HEAD request its headers only. */
  static ByteBuf encode(ByteBufAllocator alloc, HttpEndpoint.Response response, boolean head) {
    String headers = "HTTP/1.1 " + response.status() + " " + reason(response.status()) + "\r\n"
        + "Content-Type: " + response.contentType() + "\r\n"
        + "Content-Length: " + response.body().length + "\r\n"
        + "Cache-Control: no-store\r\n"
        + "X-Content-Type-Options: nosniff\r\n"
        + "Connection: close\r\n\r\n";
    byte[] h = headers.getBytes(StandardCharsets.ISO_8859_1);
    ByteBuf out = alloc.buffer(h.length + (head ? 0 : response.body().length));
    out.writeBytes(h);
    if (!head) {
      out.writeBytes(response.body());
    }
    return out;
  }

  static String reason(int status) {
    return switch (status) {
      case 200 -> "OK";
      case 400 -> "Bad Request";
      case 404 -> "Not Found";
      case 405 -> "Method Not Allowed";
      case 408 -> "Request Timeout";
      case 414 -> "URI Too Long";
      case 431 -> "Request Header Fields Too Large";
      case 500 -> "Internal Server Error";
      case 503 -> "Service Unavailable";
      default -> "Status " + status;
    };
  }
}
