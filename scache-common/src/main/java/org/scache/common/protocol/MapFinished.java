package org.scache.common.protocol;

/** A map attempt has put all its blocks; it is the map's final attempt. */
public record MapFinished(String appId, int shuffleId, int mapId, int attempt)
    implements Message, Message.ForApplication {
  @Override
  public MessageType type() {
    return MessageType.MAP_FINISHED;
  }

  @Override
  public void write(WireWriter out) {
    out.writeString(appId).writeInt(shuffleId).writeInt(mapId).writeInt(attempt);
  }

  /** Reads what {@link #write} writes. */
  static MapFinished read(WireReader in) throws MalformedMessageException {
    return new MapFinished(in.readNonEmptyString("application id"), in.readNonNegativeInt("shuffle id"),
        in.readNonNegativeInt("map id"), in.readNonNegativeInt("attempt"));
  }
}
