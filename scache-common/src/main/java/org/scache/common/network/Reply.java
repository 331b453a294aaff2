package org.scache.common.network;

import io.netty.buffer.ByteBuf;
import org.scache.common.protocol.Message;

/**
 * A successful answer and its payload (empty for most answers). The receiver owns the payload
 * and must release it.
 */
public record Reply(Message message, ByteBuf payload) {

  /** The answer, cast to the type the call expects. */
  public <T extends Message> T as(Class<T> type) {
    if (!type.isInstance(message)) {
      payload.release();
      throw new org.scache.common.ScacheException(org.scache.common.protocol.Status.MALFORMED_MESSAGE,
          "expected " + type.getSimpleName() + " but got " + message.type());
    }
    return type.cast(message);
  }
}
