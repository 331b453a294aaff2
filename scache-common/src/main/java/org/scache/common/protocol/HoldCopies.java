package org.scache.common.protocol;

/**
 * The application may read a shuffle where its maps ran, which it learns only later (Spark SQL's adaptive execution
 * turns a join into a broadcast join once the other side's maps are done): the workers hold back copying its blocks
 * to its reduces' hosts while {@code held}, and copy what is placed on them once it is not (client to master, then
 * master to every worker). A held shuffle is either released or said to be read in place ({@link ReadInPlace}).
 */
public record HoldCopies(String appId, int shuffleId, boolean held) implements Message, Message.ForApplication {
  @Override
  public MessageType type() {
    return MessageType.HOLD_COPIES;
  }

  @Override
  public void write(WireWriter out) {
    out.writeString(appId).writeInt(shuffleId).writeFlag(held);
  }

  /** Reads what {@link #write} writes. */
  static HoldCopies read(WireReader in) throws MalformedMessageException {
    return new HoldCopies(in.readNonEmptyString("application id"), in.readNonNegativeInt("shuffle id"),
        in.readFlag("held"));
  }
}
