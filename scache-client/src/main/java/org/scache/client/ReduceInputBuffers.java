package org.scache.client;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Where the blocks of a reduce input are copied out of the worker's memory to: a whole input into
 * one heap array its blocks are slices of (as over the socket); or, for an input read in parts or in
 * place, none for the blocks pinned in the worker's shared memory, which are read
 * {@linkplain #readsPinnedInPlace in place}, and reused direct buffers ({@link BlockBuffers}) for the
 * others, given back as the reader releases its blocks.
 */
interface ReduceInputBuffers {
  /**
   * Whether the blocks the worker pinned in its shared memory are read there, from the mapping, and
   * stay pinned until the reader releases each; only the others (spilled, or fetched for the read)
   * are copied into buffers of {@link #take}.
   */
  default boolean readsPinnedInPlace() {
    return false;
  }

  /** Buffers for blocks of these sizes, in order, each at position 0 with its size as limit. */
  List<ByteBuffer> take(int[] sizes);

  /**
   * Gives back a buffer {@link #take} returned: once its block has been read or its copy failed. One
   * given back twice is ignored.
   */
  void giveBack(ByteBuffer taken);

  /** One heap array for the whole input; nothing to give back. */
  static ReduceInputBuffers oneArray() {
    return new ReduceInputBuffers() {
      @Override
      public List<ByteBuffer> take(int[] sizes) {
        long total = 0;
        for (int size : sizes) {
          total += size;
        }
        ByteBuffer all = ByteBuffer.wrap(new byte[Math.toIntExact(total)]);
        List<ByteBuffer> slices = new ArrayList<>(sizes.length);
        int at = 0;
        for (int size : sizes) {
          slices.add(all.slice(at, size));
          at += size;
        }
        return slices;
      }

      @Override
      public void giveBack(ByteBuffer taken) {
      }
    };
  }

  /** Pinned blocks read in place; the others copied into a buffer of {@code pool} each. */
  static ReduceInputBuffers inPlace(BlockBuffers pool) {
    return new Pooled(pool);
  }

  /** Pinned blocks read in place; copies in buffers of a {@link BlockBuffers}, one per block. */
  final class Pooled implements ReduceInputBuffers {
    private final BlockBuffers pool;

    private Pooled(BlockBuffers pool) {
      this.pool = pool;
    }

    @Override
    public boolean readsPinnedInPlace() {
      return true;
    }

    @Override
    public List<ByteBuffer> take(int[] sizes) {
      List<ByteBuffer> buffers = new ArrayList<>(sizes.length);
      try {
        for (int size : sizes) {
          buffers.add(pool.take(size));
        }
      } catch (RuntimeException | Error e) {
        pool.giveBack(buffers);
        throw e;
      }
      return buffers;
    }

    @Override
    public void giveBack(ByteBuffer taken) {
      pool.giveBack(taken);
    }
  }
}
