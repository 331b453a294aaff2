package org.scache.common.testing;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;
import org.scache.common.ScacheException;
import org.scache.common.auth.Credentials;
import org.scache.common.network.ClientConnection;
import org.scache.common.network.ClientConnections;
import org.scache.common.network.Reply;
import org.scache.common.protocol.Message;
import org.scache.common.protocol.Status;

/**
 * Client connections whose peers are a script: each call is recorded and answered by a function of
 * the peer's address and the request (an answer, or a {@link ScacheException} for an error status).
 */
public final class ScriptedConnections implements ClientConnections {
  /** One request as the client sent it. */
  public record Sent(String peer, Message message, Optional<Credentials> credentials, int payloadBytes) {}

  private final BiFunction<String, Message, Reply> script;
  private final List<Sent> sent = new ArrayList<>();
  private boolean closed;

  public ScriptedConnections(BiFunction<String, Message, Reply> script) {
    this.script = script;
  }

  /** An answer without payload. */
  public static Reply answer(Message m) {
    return new Reply(m, Unpooled.EMPTY_BUFFER);
  }

  /** An answer with a payload. */
  public static Reply answer(Message m, byte[] payload) {
    return new Reply(m, Unpooled.wrappedBuffer(payload));
  }

  public static ScacheException refuse(Status status) {
    return new ScacheException(status, "refused by the script: " + status);
  }

  public synchronized List<Sent> sent() {
    return List.copyOf(sent);
  }

  public synchronized List<Message> sentOfType(Class<? extends Message> type) {
    return sent.stream().map(Sent::message).filter(type::isInstance).toList();
  }

  public synchronized boolean isClosed() {
    return closed;
  }

  @Override
  public CompletableFuture<? extends ClientConnection> get(String host, int port) {
    String peer = host + ":" + port;
    return CompletableFuture.completedFuture(new ClientConnection() {
      @Override
      public String peer() {
        return peer;
      }

      @Override
      public boolean isActive() {
        return true;
      }

      @Override
      public CompletableFuture<Reply> call(Message message, Optional<Credentials> credentials, ByteBuf payload,
          Duration timeout) {
        synchronized (ScriptedConnections.this) {
          sent.add(new Sent(peer, message, credentials, payload.readableBytes()));
        }
        payload.release();
        try {
          return CompletableFuture.completedFuture(script.apply(peer, message));
        } catch (RuntimeException e) {
          return CompletableFuture.failedFuture(e);
        }
      }

      @Override
      public void close() {}
    });
  }

  @Override
  public synchronized void close() {
    closed = true;
  }
}
