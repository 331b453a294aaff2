package org.scache.common.network;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.scache.common.protocol.Message;

/**
 * A successful answer and its payload (empty for most answers). The receiver owns the payload
 * and must release it ({@link #release()}). An answer without payload holds none: a blocking
 * connection's answers to a task's few calls never touch Netty's buffers.
 */
public record Reply(Message message, ByteBuf payload) {

  /** An answer that carries no payload. */
  public static Reply of(Message message) {
    return new Reply(message, null);
  }

  /** The payload; an empty buffer for an answer without one. */
  @Override
  public ByteBuf payload() {
    return payload == null ? Unpooled.EMPTY_BUFFER : payload;
  }

  /** Bytes of payload; 0 for an answer without one. */
  public int payloadBytes() {
    return payload == null ? 0 : payload.readableBytes();
  }

  /** Releases the payload, if the answer has one. */
  public void release() {
    if (payload != null) {
      payload.release();
    }
  }

  /** The answer, cast to the type the call expects. */
  public <T extends Message> T as(Class<T> type) {
    if (!type.isInstance(message)) {
      release();
      throw new org.scache.common.ScacheException(org.scache.common.protocol.Status.MALFORMED_MESSAGE,
          "expected " + type.getSimpleName() + " but got " + message.type());
    }
    return type.cast(message);
  }
}
