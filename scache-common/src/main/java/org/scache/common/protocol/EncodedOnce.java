package org.scache.common.protocol;

import java.util.Arrays;

/**
 * A message encoded once, to be sent unchanged to many peers (a placement told to every worker): each of its frames
 * copies the bytes rather than encoding the message again. Its frames carry the message's own type, so a peer reads
 * the message itself.
 */
public final class EncodedOnce implements Message {
  private final Message message;
  private final byte[] written;

  private EncodedOnce(Message message, byte[] written) {
    this.message = message;
    this.written = written;
  }

  /** {@code message}, encoded now. */
  public static EncodedOnce of(Message message) {
    if (message instanceof EncodedOnce already) {
      return already;
    }
    WireBuffer bytes = new WireBuffer(256);
    MessageCodec.encode(message, bytes);
    return new EncodedOnce(message, Arrays.copyOf(bytes.array(), bytes.length()));
  }

  /** The message as it was before it was encoded. */
  public Message message() {
    return message;
  }

  @Override
  public MessageType type() {
    return message.type();
  }

  @Override
  public void write(WireWriter out) {
    out.writeWritten(written);
  }

  @Override
  public String toString() {
    return "EncodedOnce[" + message.type() + ", " + written.length + " bytes]";
  }
}
