package org.scache.client;

import java.nio.ByteBuffer;
import java.util.List;
import org.scache.common.BlockId;

/**
 * The input of one reduce partition: the final-attempt block of every finished map, ordered by map
 * id, and how many of the shuffle's maps have finished. A part of an input read in parts may lie in
 * buffers the client reuses: {@link #release} gives them back once its blocks have been read.
 */
public final class ReduceInput {
  /** One map's block for this reduce. */
  public record Block(BlockId blockId, ByteBuffer data) {}

  private final int numMaps;
  private final int finishedMaps;
  private final List<Block> blocks;
  private final Runnable release;

  public ReduceInput(int numMaps, int finishedMaps, List<Block> blocks) {
    this(numMaps, finishedMaps, blocks, () -> { });
  }

  /** An input whose blocks lie in buffers {@code release} gives back for reuse. */
  ReduceInput(int numMaps, int finishedMaps, List<Block> blocks, Runnable release) {
    this.numMaps = numMaps;
    this.finishedMaps = finishedMaps;
    this.blocks = List.copyOf(blocks);
    this.release = release;
  }

  public int numMaps() {
    return numMaps;
  }

  public int finishedMaps() {
    return finishedMaps;
  }

  public List<Block> blocks() {
    return blocks;
  }

  /** Whether every map of the shuffle has finished, so no block is still to come. */
  public boolean isComplete() {
    return finishedMaps >= numMaps;
  }

  public long totalBytes() {
    return blocks.stream().mapToLong(b -> b.data().remaining()).sum();
  }

  /**
   * Gives the buffers the blocks lie in back for reuse: call it once the blocks have been read, and
   * read none of them afterwards. An input never released is left to the garbage collector.
   */
  public void release() {
    release.run();
  }

  /** The same input with other blocks (a subset of these), released with these. */
  ReduceInput withBlocks(List<Block> subset) {
    return new ReduceInput(numMaps, finishedMaps, subset, release);
  }

  @Override
  public String toString() {
    return "ReduceInput[numMaps=" + numMaps + ", finishedMaps=" + finishedMaps + ", blocks=" + blocks.size() + "]";
  }
}
