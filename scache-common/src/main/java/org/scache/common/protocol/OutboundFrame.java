package org.scache.common.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.Objects;
import java.util.Optional;
import org.scache.common.auth.Credentials;

/**
 * A message on its way out, with its request id, the credentials that sign it (requests only),
 * and the payload it carries. The frame owns {@code payload}: the encoder releases it once written.
 */
public record OutboundFrame(long requestId, Message message, Optional<Credentials> credentials, ByteBuf payload) {

  public OutboundFrame {
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(credentials, "credentials");
    Objects.requireNonNull(payload, "payload");
    if (payload.isReadable() && !message.type().carriesPayload()) {
      throw new IllegalArgumentException(message.type() + " carries no payload");
    }
  }

  public static OutboundFrame of(long requestId, Message message) {
    return new OutboundFrame(requestId, message, Optional.empty(), Unpooled.EMPTY_BUFFER);
  }

  public static OutboundFrame signed(long requestId, Message message, Credentials credentials) {
    return new OutboundFrame(requestId, message, Optional.of(credentials), Unpooled.EMPTY_BUFFER);
  }
}
