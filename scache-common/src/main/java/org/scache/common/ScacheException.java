package org.scache.common;

import java.util.Objects;
import org.scache.common.protocol.Status;

/** The one exception SCache calls throw: a {@link Status} and a message that says what went wrong. */
public final class ScacheException extends RuntimeException {
  private final Status status;

  public ScacheException(Status status, String message) {
    super(status + ": " + message);
    this.status = Objects.requireNonNull(status);
  }

  public ScacheException(Status status, String message, Throwable cause) {
    super(status + ": " + message, cause);
    this.status = Objects.requireNonNull(status);
  }

  public Status status() {
    return status;
  }

  /** The {@link ScacheException} inside {@code t} (unwrapping completion wrappers), or one made from it. */
  public static ScacheException from(Throwable t) {
    Throwable c = t;
    while ((c instanceof java.util.concurrent.CompletionException
        || c instanceof java.util.concurrent.ExecutionException) && c.getCause() != null) {
      c = c.getCause();
    }
    if (c instanceof ScacheException s) {
      return s;
    }
    if (c instanceof java.io.IOException || c instanceof io.netty.channel.ChannelException) {
      return new ScacheException(Status.CONNECTION_FAILED, String.valueOf(c.getMessage()), c);
    }
    return new ScacheException(Status.INTERNAL_ERROR, c.toString(), c);
  }
}
