package org.scache.worker.local;

import io.netty.buffer.ByteBuf;
import java.util.List;
import java.util.Optional;
import org.scache.common.BlockId;

/**
 * A reduce's input read for a local client: how many maps its shuffle has and how many finished, each
 * block pinned in shared memory or else in the payload, which holds the bytes of the unpinned ones one
 * after the other. Whoever receives it owns the payload.
 */
public record PinnedInput(int numMaps, int finishedMaps, List<Part> parts, ByteBuf payload) {
  public PinnedInput {
    parts = List.copyOf(parts);
  }

  /** One block of the input: pinned, or next in the payload. */
  public record Part(BlockId blockId, long size, Optional<PinnedRange> pin) {
    public Part {
      if (pin.isPresent() && pin.get().length() != size) {
        throw new IllegalArgumentException("block " + blockId + " of " + size + " bytes pinned as " + pin.get());
      }
    }
  }
}
