package org.scache.common.protocol;

/**
 * The application reads a shuffle map by map, each map's output on the host its map ran on (Spark SQL's local
 * shuffle reads, chosen once its maps are done): its reduces are not read where they were placed, so no worker
 * copies their blocks there any more (client to master, then master to every worker).
 */
public record ReadInPlace(String appId, int shuffleId) implements Message, Message.ForApplication {
  @Override
  public MessageType type() {
    return MessageType.READ_IN_PLACE;
  }

  @Override
  public void write(WireWriter out) {
    out.writeString(appId).writeInt(shuffleId);
  }

  /** Reads what {@link #write} writes. */
  static ReadInPlace read(WireReader in) throws MalformedMessageException {
    return new ReadInPlace(in.readNonEmptyString("application id"), in.readNonNegativeInt("shuffle id"));
  }
}
