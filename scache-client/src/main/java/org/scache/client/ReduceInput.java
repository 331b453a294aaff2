package org.scache.client;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.function.Consumer;
import org.scache.common.BlockId;

/**
 * The input of one reduce partition: the final-attempt block of every finished map, ordered by map
 * id, and how many of the shuffle's maps have finished. A part of an input read in parts may lie in
 * buffers the client reuses, or in place in the worker's shared memory, pinned there:
 * {@link #release(Block)} gives one back once its block has been read, {@link #release()} all of
 * them. A block read in place whose connection to the worker closed while it was read fails its
 * release: its bytes may have changed under the reader.
 */
public final class ReduceInput {
  /** One map's block for this reduce. */
  public record Block(BlockId blockId, ByteBuffer data) {}

  private final int numMaps;
  private final int finishedMaps;
  private final List<Block> blocks;
  /** Every buffer the input was copied into, given back by {@link #release()}; blocks may be fewer. */
  private final List<ByteBuffer> buffers;
  private final Consumer<ByteBuffer> giveBack;

  public ReduceInput(int numMaps, int finishedMaps, List<Block> blocks) {
    this(numMaps, finishedMaps, blocks, List.of(), b -> { });
  }

  /**
   * An input whose blocks lie in {@code buffers}, which {@code giveBack} takes back for reuse; it must
   * ignore a buffer given back twice.
   */
  ReduceInput(int numMaps, int finishedMaps, List<Block> blocks, List<ByteBuffer> buffers,
      Consumer<ByteBuffer> giveBack) {
    this.numMaps = numMaps;
    this.finishedMaps = finishedMaps;
    this.blocks = List.copyOf(blocks);
    this.buffers = List.copyOf(buffers);
    this.giveBack = giveBack;
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
    RuntimeException failed = null;
    for (ByteBuffer b : buffers) {
      try {
        giveBack.accept(b);
      } catch (RuntimeException e) {
        failed = failed == null ? e : failed;
      }
    }
    if (failed != null) {
      throw failed;
    }
  }

  /** Gives back the buffer of {@code block}, one of these, once it has been read; read it no more. */
  public void release(Block block) {
    giveBack.accept(block.data());
  }

  /** The same input with other blocks (a subset of these), released with these. */
  ReduceInput withBlocks(List<Block> subset) {
    return new ReduceInput(numMaps, finishedMaps, subset, buffers, giveBack);
  }

  @Override
  public String toString() {
    return "ReduceInput[numMaps=" + numMaps + ", finishedMaps=" + finishedMaps + ", blocks=" + blocks.size() + "]";
  }
}
