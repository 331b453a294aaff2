package org.scache.common.protocol;

/**
 * Worker to master: where the final-attempt blocks of one reduce are; {@code mapId} −1 asks for
 * every finished map, otherwise for that map only.
 */
public record LocateBlocks(String appId, int shuffleId, int reduceId, int mapId)
    implements Message, Message.ForApplication {
  @Override
  public MessageType type() {
    return MessageType.LOCATE_BLOCKS;
  }

  @Override
  public void write(WireWriter out) {
    out.writeString(appId).writeInt(shuffleId).writeInt(reduceId).writeInt(mapId);
  }

  /** Reads what {@link #write} writes. */
  static LocateBlocks read(WireReader in) throws MalformedMessageException {
    String app = in.readNonEmptyString("application id");
    int shuffle = in.readNonNegativeInt("shuffle id");
    int reduce = in.readNonNegativeInt("reduce id");
    int map = in.readInt("map id");
    if (map < -1) {
      throw new MalformedMessageException("map id must be -1 (all) or a map id: " + map);
    }
    return new LocateBlocks(app, shuffle, reduce, map);
  }
}
