package org.scache.common.network;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.scache.common.auth.Credentials;
import org.scache.common.protocol.Message;

/**
 * A client's connection to one master or worker: it sends requests and hands back their answers.
 * Every call ends, with its answer, its error status, {@code TIMEOUT} or {@code CONNECTION_FAILED}.
 */
public interface ClientConnection extends AutoCloseable {
  /** host:port of the other end. */
  String peer();

  /** False once the connection is closed or broken; a pool then opens a new one. */
  boolean isActive();

  /** Sends {@code message} with {@code payload} (owned by the call from now on). */
  CompletableFuture<Reply> call(Message message, Optional<Credentials> credentials, ByteBuf payload, Duration timeout);

  /** Sends {@code message} without payload. */
  default CompletableFuture<Reply> call(Message message, Optional<Credentials> credentials, Duration timeout) {
    return call(message, credentials, Unpooled.EMPTY_BUFFER, timeout);
  }

  @Override
  void close();
}
