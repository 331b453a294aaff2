package org.scache.common.protocol;

import java.util.Objects;

/**
 * The request failed with this status: the answer of type {@link MessageType#ERROR} (not named {@code Error},
 * which would hide {@code java.lang.Error} wherever it is imported).
 */
public record ErrorAnswer(Status status, String message) implements Message {
  public ErrorAnswer {
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(message, "message");
  }

  @Override
  public MessageType type() {
    return MessageType.ERROR;
  }

  @Override
  public void write(WireWriter out) {
    out.writeShort(status.code()).writeString(message);
  }

  /** Reads what {@link #write} writes. */
  static ErrorAnswer read(WireReader in) throws MalformedMessageException {
    int code = in.readUnsignedShort("status");
    Status s = Status.fromCode(code).orElse(Status.INTERNAL_ERROR);
    String text = in.readString("error message");
    return new ErrorAnswer(s, s.code() == code ? text : "unknown status " + code + ": " + text);
  }
}
