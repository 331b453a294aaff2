package org.scache.common.protocol;

/** Removes an application: its shuffles, its blocks and its secret. */
public record RemoveApplication(String appId) implements Message, Message.ForApplication {
  @Override
  public MessageType type() {
    return MessageType.REMOVE_APPLICATION;
  }

  @Override
  public void write(WireWriter out) {
    out.writeString(appId);
  }

  /** Reads what {@link #write} writes. */
  static RemoveApplication read(WireReader in) throws MalformedMessageException {
    return new RemoveApplication(in.readNonEmptyString("application id"));
  }
}
