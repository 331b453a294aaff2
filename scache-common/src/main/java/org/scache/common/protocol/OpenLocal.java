package org.scache.common.protocol;

/** Asks for the worker's segment files, to be mapped by a client on the same host. */
public record OpenLocal(String appId) implements Message, Message.ForApplication {
  @Override
  public MessageType type() {
    return MessageType.OPEN_LOCAL;
  }

  @Override
  public void write(WireWriter out) {
    out.writeString(appId);
  }

  /** Reads what {@link #write} writes. */
  static OpenLocal read(WireReader in) throws MalformedMessageException {
    return new OpenLocal(in.readNonEmptyString("application id"));
  }
}
