package org.scache.common;

import java.util.Objects;
import org.scache.common.protocol.Status;

/** The one exception SCache calls throw: a {@link Status} and a message that says what went wrong. */
public final class ScacheException extends RuntimeException {
  private final Status status;
  private final String detail;

  public ScacheException(Status status, String message) {
    this(status, message, null);
  }

  public ScacheException(Status status, String message, Throwable cause) {
    super(status + ": " + withoutPrefix(status, message), cause);
    this.status = Objects.requireNonNull(status);
    this.detail = withoutPrefix(status, message);
  }

  public Status status() {
    return status;
  }

  /** The message without the status in front: what an error answer carries next to its status. */
  public String detail() {
    return detail;
  }

  /** {@code message} without any "STATUS: " in front, so a status passed on is not repeated. */
  private static String withoutPrefix(Status status, String message) {
    String prefix = status + ": ";
    String m = String.valueOf(message);
    while (m.startsWith(prefix)) {
      m = m.substring(prefix.length());
    }
    return m;
  }

  /** The {@link ScacheException} inside {@code t} (unwrapping completion wrappers), or one made from it. */
  /** {@code t} without the completion and execution wrappers of futures around it. */
  public static Throwable unwrap(Throwable t) {
    Throwable c = t;
    while ((c instanceof java.util.concurrent.CompletionException
        || c instanceof java.util.concurrent.ExecutionException) && c.getCause() != null) {
      c = c.getCause();
    }
    return c;
  }

  public static ScacheException from(Throwable t) {
    Throwable c = unwrap(t);
    if (c instanceof ScacheException s) {
      return s;
    }
    if (c instanceof java.io.IOException || c instanceof io.netty.channel.ChannelException) {
      return new ScacheException(Status.CONNECTION_FAILED, String.valueOf(c.getMessage()), c);
    }
    return new ScacheException(Status.INTERNAL_ERROR, c.toString(), c);
  }
}
