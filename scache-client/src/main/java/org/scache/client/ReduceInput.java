package org.scache.client;

import java.nio.ByteBuffer;
import java.util.List;
import org.scache.common.BlockId;

/**
 * The input of one reduce partition: the final-attempt block of every finished map, ordered by map
 * id, and how many of the shuffle's maps have finished.
 */
public record ReduceInput(int numMaps, int finishedMaps, List<Block> blocks) {

  /** One map's block for this reduce. */
  public record Block(BlockId blockId, ByteBuffer data) {}

  public ReduceInput {
    blocks = List.copyOf(blocks);
  }

  /** Whether every map of the shuffle has finished, so no block is still to come. */
  public boolean isComplete() {
    return finishedMaps >= numMaps;
  }

  public long totalBytes() {
    return blocks.stream().mapToLong(b -> b.data().remaining()).sum();
  }
}
