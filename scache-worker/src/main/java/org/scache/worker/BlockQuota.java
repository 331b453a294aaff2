package org.scache.worker;

import java.util.HashMap;
import java.util.Map;
import org.scache.common.BlockId;
import org.scache.common.ScacheException;
import org.scache.common.protocol.Status;

/**
 * How many blocks a worker holds, in all and per application, against its limits: every block
 * costs heap for its index entries whatever its size (an empty one too), so the count, not the
 * bytes, is what keeps a flood of tiny blocks from running the worker out of heap, and the share
 * per application keeps one application from taking every entry. Not thread-safe: the
 * {@link BlockStore} calls it under its lock.
 */
final class BlockQuota {
  /** Heap a block's entries are budgeted at when the limit is derived from the heap. */
  static final long HEAP_BYTES_PER_BLOCK = 1024;

  private final int maxBlocks;
  private final int maxPerApplication;
  private final Map<String, Integer> perApplication = new HashMap<>();
  private int total;

  BlockQuota(int maxBlocks, int maxPerApplication) {
    this.maxBlocks = maxBlocks;
    this.maxPerApplication = Math.min(maxBlocks, maxPerApplication);
  }

  /** No limits. */
  static BlockQuota unlimited() {
    return new BlockQuota(Integer.MAX_VALUE, Integer.MAX_VALUE);
  }

  /**
   * Limits from the configured values: {@code maxBlocks} 0 means half the heap at
   * {@link #HEAP_BYTES_PER_BLOCK} each; an application gets {@code applicationShare} of it.
   */
  static BlockQuota of(int maxBlocks, double applicationShare, long maxHeapBytes) {
    int max = maxBlocks > 0 ? maxBlocks : (int) Math.min(Integer.MAX_VALUE, maxHeapBytes / 2 / HEAP_BYTES_PER_BLOCK);
    return new BlockQuota(max, (int) Math.max(1, Math.floor(max * applicationShare)));
  }

  /** Why one more block like {@code id} cannot be held, or null when it can. */
  ScacheException refusal(BlockId id) {
    if (total >= maxBlocks) {
      return new ScacheException(Status.LIMIT_EXCEEDED, "this worker holds " + total + " blocks, its limit "
          + "(scache.worker.blocks.max); " + id + " is refused");
    }
    int held = perApplication.getOrDefault(id.appId(), 0);
    if (held >= maxPerApplication) {
      return new ScacheException(Status.LIMIT_EXCEEDED, "application " + id.appId() + " holds " + held
          + " blocks on this worker, its share of the worker's limit (scache.worker.blocks.application.share); "
          + id + " is refused");
    }
    return null;
  }

  void added(BlockId id) {
    total++;
    perApplication.merge(id.appId(), 1, Integer::sum);
  }

  void removed(BlockId id) {
    total--;
    perApplication.computeIfPresent(id.appId(), (a, n) -> n <= 1 ? null : n - 1);
  }

  int maxBlocks() {
    return maxBlocks;
  }

  int maxPerApplication() {
    return maxPerApplication;
  }
}
