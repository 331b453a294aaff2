package org.scache.worker.store;

import java.util.function.Function;
import java.util.function.Predicate;
import org.scache.common.ApplicationShares;
import org.scache.common.BlockId;
import org.scache.common.QuotaOwner;
import org.scache.common.ScacheException;
import org.scache.common.protocol.Status;

/**
 * How many blocks a worker holds, in all and per application, against its limits: every block
 * costs heap for its index entries whatever its size (an empty one too), so the count, not the
 * bytes, is what keeps a flood of tiny blocks from running the worker out of heap, and the share
 * per owner (a user's applications together) keeps one user from taking every entry. Not thread-safe: the
 * {@link BlockStore} calls it under its lock.
 */
public final class BlockQuota {
  /**
   * Heap a block's entries are budgeted at when the limit is derived from the heap: a stored block takes 96-108 bytes
   * (its entry, which is also its place in its shuffle's lists and in the spill order, its slot in the index and, for
   * a prefetched copy, its place in its application's queue), and what a block in flight costs beside it (its report
   * to the master, its prefetch) takes the rest.
   */
  static final long HEAP_BYTES_PER_BLOCK = 256;

  private final ApplicationShares blocks;

  private BlockQuota(ApplicationShares blocks) {
    this.blocks = blocks;
  }

  /** No limits. */
  public static BlockQuota unlimited() {
    return new BlockQuota(ApplicationShares.unlimited());
  }

  /**
   * Limits from the configured values: {@code maxBlocks} 0 means half the heap at
   * {@link #HEAP_BYTES_PER_BLOCK} each; each application is its own owner, with {@code applicationShare} of it.
   */
  public static BlockQuota of(int maxBlocks, double applicationShare, long maxHeapBytes) {
    return of(maxBlocks, applicationShare, maxHeapBytes, QuotaOwner::ofApplication);
  }

  /**
   * As {@link #of(int, double, long)}, the share being an owner's ({@link QuotaOwner}): all the applications of
   * one user, as {@code ownerOf} names it, share it.
   */
  public static BlockQuota of(int maxBlocks, double share, long maxHeapBytes, Function<String, String> ownerOf) {
    long max = maxBlocks > 0 ? maxBlocks : maxHeapBytes / 2 / HEAP_BYTES_PER_BLOCK;
    return new BlockQuota(ApplicationShares.of(max, share, ownerOf));
  }

  /** The blocks held at most, in all and for one owner. */
  public record Limits(long maxBlocks, long maxBlocksPerOwner) {}

  public Limits limits() {
    return new Limits(blocks.max(), blocks.maxPerApplication());
  }

  /** Why one more block like {@code id} cannot be held, or null when it can. */
  ScacheException refusal(BlockId id) {
    if (!blocks.fitsInAll(1)) {
      return new ScacheException(Status.LIMIT_EXCEEDED, "this worker holds " + blocks.total() + " blocks, its limit "
          + "(scache.worker.blocks.max); " + id + " is refused");
    }
    if (!blocks.fitsApplication(id.appId(), 1)) {
      return new ScacheException(Status.LIMIT_EXCEEDED, blocks.describeOwnerOf(id.appId()) + " holds "
          + blocks.heldByOwnerOf(id.appId()) + " blocks on this worker (application " + id.appId() + " "
          + blocks.heldBy(id.appId()) + "), its share of the worker's limit "
          + "(scache.worker.blocks.application.share); " + id + " is refused");
    }
    return null;
  }

  /**
   * Whose prefetched copies may be dropped to make room for {@code id}, a block put by a map: any
   * application's when the worker is at its limit in all, the applications of {@code id}'s owner when that
   * owner is at its share; null when the block fits already.
   */
  Predicate<String> copiesThatMakeRoomFor(BlockId id) {
    if (!blocks.fitsInAll(1)) {
      return app -> true;
    }
    if (!blocks.fitsApplication(id.appId(), 1)) {
      return app -> blocks.sameOwner(app, id.appId());
    }
    return null;
  }

  void added(BlockId id) {
    added(id.appId());
  }

  void removed(BlockId id) {
    removed(id.appId());
  }

  /** A block of application {@code appId} is held. */
  void added(String appId) {
    blocks.add(appId, 1);
  }

  /** A block of application {@code appId} is no longer held. */
  void removed(String appId) {
    blocks.remove(appId, 1);
  }
}
