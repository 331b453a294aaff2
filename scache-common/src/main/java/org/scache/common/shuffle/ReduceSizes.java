package org.scache.common.shuffle;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.scache.common.BlockId;
import org.scache.common.Checks;

/**
 * The sizes of some blocks of one map attempt, by reduce id: twelve bytes a block in memory and on the wire, where a
 * list of {@link BlockSize} repeats the block's application, shuffle, map and attempt in each. Immutable.
 */
public final class ReduceSizes {
  private static final ReduceSizes NONE = new ReduceSizes(new int[0], new long[0]);

  private final int[] reduces;
  private final long[] sizes;

  private ReduceSizes(int[] reduces, long[] sizes) {
    this.reduces = reduces;
    this.sizes = sizes;
  }

  /** Collects a map attempt's block sizes, one reduce at a time. */
  public static final class Builder {
    private int[] reduces = new int[8];
    private long[] sizes = new long[8];
    private int count;

    public Builder add(int reduceId, long size) {
      Checks.require(reduceId >= 0 && size >= 0, "reduce %d of size %d", reduceId, size);
      if (count == reduces.length) {
        reduces = Arrays.copyOf(reduces, count * 2);
        sizes = Arrays.copyOf(sizes, count * 2);
      }
      reduces[count] = reduceId;
      sizes[count] = size;
      count++;
      return this;
    }

    public ReduceSizes build() {
      return count == 0 ? NONE : new ReduceSizes(Arrays.copyOf(reduces, count), Arrays.copyOf(sizes, count));
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The sizes of {@code blocks}, which must all be of one map attempt. */
  public static ReduceSizes of(List<BlockSize> blocks) {
    Builder b = builder();
    for (BlockSize s : blocks) {
      Checks.require(s.blockId().mapId() == blocks.get(0).blockId().mapId()
          && s.blockId().attempt() == blocks.get(0).blockId().attempt()
          && s.blockId().shuffle().equals(blocks.get(0).blockId().shuffle()), "%s is not of %s's map attempt",
          s.blockId(), blocks.get(0).blockId());
      b.add(s.blockId().reduceId(), s.size());
    }
    return b.build();
  }

  public int count() {
    return reduces.length;
  }

  public int reduceId(int i) {
    return reduces[i];
  }

  public long size(int i) {
    return sizes[i];
  }

  /** As block sizes of map {@code mapId}'s {@code attempt} of a shuffle. */
  public List<BlockSize> asBlocks(String appId, int shuffleId, int mapId, int attempt) {
    List<BlockSize> out = new ArrayList<>(reduces.length);
    for (int i = 0; i < reduces.length; i++) {
      out.add(new BlockSize(new BlockId(appId, shuffleId, mapId, attempt, reduces[i]), sizes[i]));
    }
    return out;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ReduceSizes other && Arrays.equals(reduces, other.reduces) && Arrays.equals(sizes, other.sizes);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(reduces) + Arrays.hashCode(sizes);
  }

  @Override
  public String toString() {
    return "ReduceSizes[" + reduces.length + " blocks]";
  }
}
