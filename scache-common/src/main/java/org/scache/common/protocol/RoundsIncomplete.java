package org.scache.common.protocol;

import java.util.List;

/**
 * Master to workers: every round of a shuffle that some worker keeps only in part; the receiver
 * replaces what it knew of the shuffle with this list and spills those rounds first.
 */
public record RoundsIncomplete(String appId, int shuffleId, List<Integer> rounds) implements Message {
  public RoundsIncomplete {
    rounds = List.copyOf(rounds);
  }

  @Override
  public MessageType type() {
    return MessageType.ROUNDS_INCOMPLETE;
  }

  @Override
  public void write(WireWriter out) {
    out.writeString(appId).writeInt(shuffleId).writeList(rounds, WireWriter::writeInt);
  }

  /** Reads what {@link #write} writes. */
  static RoundsIncomplete read(WireReader in) throws MalformedMessageException {
    return new RoundsIncomplete(in.readNonEmptyString("application id"), in.readNonNegativeInt("shuffle id"),
        in.readList("rounds", 4, r -> r.readNonNegativeInt("round")));
  }
}
