package org.scache.common.protocol;

import java.util.List;

/**
 * A reduce's input, in the order of {@code parts}: each block pinned, or in the payload, which holds
 * the bytes of the unpinned ones one after the other.
 */
public record PinnedReduceInput(int numMaps, int finishedMaps, List<ReducePart> parts) implements Message {
  public PinnedReduceInput {
    parts = List.copyOf(parts);
  }

  /** The bytes the payload must hold: those of the blocks that are not pinned. */
  public long payloadBytes() {
    return parts.stream().filter(p -> p.pin().isEmpty()).mapToLong(ReducePart::size).sum();
  }

  @Override
  public MessageType type() {
    return MessageType.PINNED_REDUCE_INPUT;
  }

  @Override
  public void write(WireWriter out) {
    out.writeInt(numMaps).writeInt(finishedMaps).writeList(parts, (w, part) -> part.write(w));
  }

  /** Reads what {@link #write} writes. */
  static PinnedReduceInput read(WireReader in) throws MalformedMessageException {
    int maps = in.readNonNegativeInt("map count");
    int finished = in.readNonNegativeInt("finished map count");
    List<ReducePart> parts = in.readList("blocks", BlockIdForm.MIN_BYTES + 8 + 1, ReducePart::read);
    return new PinnedReduceInput(maps, finished, parts);
  }
}
