package org.scache.common.protocol;

import java.util.Optional;
import org.scache.common.BlockId;

/** One block of a {@link PinnedReduceInput}: pinned in the worker's shared memory, or else next in the payload. */
public record ReducePart(BlockId blockId, long size, Optional<PinnedBlock> pin) {
  public ReducePart {
    if (pin.isPresent() && pin.get().length() != size) {
      throw new IllegalArgumentException("block " + blockId + " of " + size + " bytes pinned as " + pin.get());
    }
  }

  /** Writes this block as part of a message. */
  void write(WireWriter out) {
    BlockIdForm.write(out, blockId).writeLong(size).writeFlag(pin.isPresent());
    pin.ifPresent(p -> out.writeLong(p.pinId()).writeInt(p.segment()).writeLong(p.offset()));
  }

  /** Reads what {@link #write} writes. */
  static ReducePart read(WireReader in) throws MalformedMessageException {
    BlockId id = BlockIdForm.read(in);
    long size = in.readNonNegativeLong("block size");
    Optional<PinnedBlock> pin = in.readFlag("pinned")
        ? Optional.of(new PinnedBlock(in.readLong("pin id"), in.readNonNegativeInt("segment"),
            in.readNonNegativeLong("offset"), size))
        : Optional.empty();
    return new ReducePart(id, size, pin);
  }
}
