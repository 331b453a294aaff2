package org.scache.common.protocol;

/**
 * The master's answer to {@link AskBlockRoom}: over the {@code workers} live workers that reported their
 * limits, how many more blocks they hold for one owner ({@code forOneOwner}: each worker's room, at most
 * the owner's share of its limit) and in all, both after the {@code toCome} blocks that shuffles registered already
 * have still to put; {@code unknownWorkers} live workers reported no limits.
 */
public record BlockRoom(long forOneOwner, long inAll, int workers, int unknownWorkers, long toCome)
    implements Message {

  /** A room with no blocks booked by registered shuffles. */
  public BlockRoom(long forOneOwner, long inAll, int workers, int unknownWorkers) {
    this(forOneOwner, inAll, workers, unknownWorkers, 0);
  }

  /**
   * The blocks a shuffle of {@code maps} × {@code reduces} puts, one per map and reduce (a negative count as none), at
   * most {@link Long#MAX_VALUE}: what a room is compared with, and what the master books for registered shuffles.
   */
  public static long blocksOf(long maps, long reduces) {
    try {
      return Math.multiplyExact(Math.max(0, maps), Math.max(0, reduces));
    } catch (ArithmeticException e) {
      return Long.MAX_VALUE;
    }
  }

  @Override
  public MessageType type() {
    return MessageType.BLOCK_ROOM;
  }

  @Override
  public void write(WireWriter out) {
    out.writeLong(forOneOwner).writeLong(inAll).writeInt(workers).writeInt(unknownWorkers).writeLong(toCome);
  }

  /** Reads what {@link #write} writes. */
  static BlockRoom read(WireReader in) throws MalformedMessageException {
    return new BlockRoom(in.readNonNegativeLong("room for one owner"), in.readNonNegativeLong("room in all"),
        in.readNonNegativeInt("workers"), in.readNonNegativeInt("workers of unknown room"),
        in.readNonNegativeLong("blocks still to come"));
  }
}
