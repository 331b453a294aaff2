package org.scache.common.protocol;

import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;

/**
 * A message's metadata to bytes and back, for the framing code: the message writes its own fields,
 * and its {@link MessageType} reads them. Field order and widths are the protocol: see
 * {@code docs/protocol.md}. Decoding validates every value, so a malformed frame is reported with
 * {@link MalformedMessageException} and the connection can go on.
 */
public final class MessageCodec {
  private MessageCodec() {}

  /** Writes {@code message}'s metadata to {@code out}. */
  public static void encode(Message message, ByteBuf out) {
    WireBuffer bytes = new WireBuffer(128);
    encode(message, bytes);
    out.writeBytes(bytes.array(), 0, bytes.length());
  }

  /** Writes {@code message}'s metadata to {@code out}. */
  public static void encode(Message message, WireBuffer out) {
    message.write(new WireWriter(out));
  }

  /** Reads one message of {@code type} from all of {@code in}'s readable bytes, and moves past what it read. */
  public static Message decode(MessageType type, ByteBuf in) throws MalformedMessageException {
    return WireReader.fromReadable(in, view -> decode(type, view));
  }

  /** Reads one message of {@code type} from all of {@code in}'s remaining bytes, and moves past what it read. */
  public static Message decode(MessageType type, ByteBuffer in) throws MalformedMessageException {
    WireReader r = new WireReader(in);
    Message m = type.read(r);
    r.expectEnd(type.name());
    return m;
  }
}
