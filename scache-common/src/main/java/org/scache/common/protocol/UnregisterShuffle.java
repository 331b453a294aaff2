package org.scache.common.protocol;

/** Drops a shuffle: its state on the master and its blocks on the workers. */
public record UnregisterShuffle(String appId, int shuffleId) implements Message, Message.ForApplication {
  @Override
  public MessageType type() {
    return MessageType.UNREGISTER_SHUFFLE;
  }

  @Override
  public void write(WireWriter out) {
    out.writeString(appId).writeInt(shuffleId);
  }

  /** Reads what {@link #write} writes. */
  static UnregisterShuffle read(WireReader in) throws MalformedMessageException {
    return new UnregisterShuffle(in.readNonEmptyString("application id"), in.readNonNegativeInt("shuffle id"));
  }
}
