package org.scache.common.protocol;

/** Worker to master (cluster principal only): the secret of an application. */
public record FetchAppSecret(String appId) implements Message {
  @Override
  public MessageType type() {
    return MessageType.FETCH_APP_SECRET;
  }

  @Override
  public void write(WireWriter out) {
    out.writeString(appId);
  }

  /** Reads what {@link #write} writes. */
  static FetchAppSecret read(WireReader in) throws MalformedMessageException {
    return new FetchAppSecret(in.readNonEmptyString("application id"));
  }
}
