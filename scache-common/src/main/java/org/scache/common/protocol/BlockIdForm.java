package org.scache.common.protocol;

import org.scache.common.BlockId;

/** A {@link BlockId} on the wire: the application id, then the shuffle, map, attempt and reduce ids (i32 each). */
final class BlockIdForm {
  /** The fewest bytes a block id takes: a one-byte application id and four ids. */
  static final int MIN_BYTES = 2 + 1 + 4 * 4;

  private BlockIdForm() {}

  static WireWriter write(WireWriter out, BlockId id) {
    return out.writeString(id.appId()).writeInt(id.shuffleId()).writeInt(id.mapId()).writeInt(id.attempt())
        .writeInt(id.reduceId());
  }

  static BlockId read(WireReader in) throws MalformedMessageException {
    return new BlockId(in.readNonEmptyString("application id"), in.readNonNegativeInt("shuffle id"),
        in.readNonNegativeInt("map id"), in.readNonNegativeInt("attempt"), in.readNonNegativeInt("reduce id"));
  }
}
