package org.scache.common.protocol;

/**
 * A reduce has committed its output: its input blocks are read for the last time and are freed
 * everywhere (client to master, then master to every worker).
 */
public record ReduceCommitted(String appId, int shuffleId, int reduceId) implements Message, Message.ForApplication {
  @Override
  public MessageType type() {
    return MessageType.REDUCE_COMMITTED;
  }

  @Override
  public void write(WireWriter out) {
    out.writeString(appId).writeInt(shuffleId).writeInt(reduceId);
  }

  /** Reads what {@link #write} writes. */
  static ReduceCommitted read(WireReader in) throws MalformedMessageException {
    return new ReduceCommitted(in.readNonEmptyString("application id"), in.readNonNegativeInt("shuffle id"),
        in.readNonNegativeInt("reduce id"));
  }
}
