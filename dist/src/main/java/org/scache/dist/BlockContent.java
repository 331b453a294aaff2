package org.scache.dist;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;

/**
 * Pseudo-random block contents that are a function of a seed and the block's coordinates, so data
 * can be checked after a round trip by generating it again instead of keeping a copy.
 */
public final class BlockContent {
  private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private final long seed;

  public BlockContent(long seed) {
    this.seed = seed;
  }

  /** Fills {@code block} with the contents of block (shuffle, map, reduce). */
  public void fill(byte[] block, int shuffleId, int mapId, int reduceId) {
    SplittableRandom random = new SplittableRandom(seed ^ mix(shuffleId, mapId, reduceId));
    int i = 0;
    for (; i + Long.BYTES <= block.length; i += Long.BYTES) {
      LONGS.set(block, i, random.nextLong());
    }
    for (; i < block.length; i++) {
      block[i] = (byte) random.nextInt();
    }
  }

  /**
   * Whether {@code actual} (position to limit) holds exactly the contents of block (shuffle, map,
   * reduce) of {@code scratch.length} bytes; {@code scratch} is overwritten.
   */
  public boolean matches(ByteBuffer actual, byte[] scratch, int shuffleId, int mapId, int reduceId) {
    if (actual.remaining() != scratch.length) {
      return false;
    }
    fill(scratch, shuffleId, mapId, reduceId);
    return actual.duplicate().equals(ByteBuffer.wrap(scratch));
  }

  private static long mix(int shuffleId, int mapId, int reduceId) {
    long h = shuffleId * 0x9E3779B97F4A7C15L;
    h = (h ^ mapId) * 0xC2B2AE3D27D4EB4FL;
    h = (h ^ reduceId) * 0x165667B19E3779F9L;
    return h ^ (h >>> 31);
  }
}
