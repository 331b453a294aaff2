package org.scache.worker.store;

import java.util.function.Function;
import java.util.function.Predicate;
import org.scache.common.ApplicationShares;
import org.scache.common.BlockId;
import org.scache.common.QuotaOwner;
import org.scache.common.ScacheException;
import org.scache.common.protocol.Status;
import org.scache.worker.spill.SpillPolicy;

/**
 * How much block metadata a worker holds, in all and per application, against its limits: every block costs heap
 * for its entries whatever its size (an empty one too), so the metadata, not the bytes, is what keeps a flood of tiny
 * blocks from running the worker out of heap, and the share per owner (a user's applications together) keeps one
 * user from taking every entry.
 *
 * <p>A limit set ({@code scache.worker.blocks.max}) counts blocks. A limit derived from the heap counts the heap the
 * entries take, in units of {@link #HEAP_BYTES_PER_UNIT}: a block 1 (its slot in its map attempt's arrays, about 25
 * bytes, {@link MapBlocks}), 4 under a spill policy that gives each block a group of its own (LRU, about 110 bytes),
 * and a map attempt's entry 4 more, which its first block held here pays (about 110 bytes: a shuffle of one reduce
 * costs that a block). A wide shuffle's block thus costs one unit, and the limit is as many of them as half the heap
 * holds, whatever shape of blocks fills it. Not thread-safe: the {@link BlockStore} calls it under its lock.
 */
public final class BlockQuota {
  /** Heap a unit of the limit stands for when the limit is derived from the heap (half of it). */
  static final long HEAP_BYTES_PER_UNIT = 32;
  /** Units a map attempt's entry costs under a limit derived from the heap. */
  static final int MAP_ATTEMPT_UNITS = 4;
  /** Units a block costs under a limit derived from the heap when its spill policy gives it a group of its own. */
  static final int GROUPED_BLOCK_UNITS = 4;

  private final ApplicationShares blocks;
  /** Whether the limit is derived from the heap (units of heap), not set (blocks). */
  private final boolean derived;
  private final int blockUnits;
  private final int mapAttemptUnits;

  private BlockQuota(ApplicationShares blocks, boolean derived, int blockUnits, int mapAttemptUnits) {
    this.blocks = blocks;
    this.derived = derived;
    this.blockUnits = blockUnits;
    this.mapAttemptUnits = mapAttemptUnits;
  }

  /** No limits. */
  public static BlockQuota unlimited() {
    return new BlockQuota(ApplicationShares.unlimited(), false, 1, 0);
  }

  /**
   * Limits from the configured values, under the paper's spill policy: {@code maxBlocks} 0 means half the heap in
   * units of {@link #HEAP_BYTES_PER_UNIT}; each application is its own owner, with {@code applicationShare} of it.
   */
  public static BlockQuota of(int maxBlocks, double applicationShare, long maxHeapBytes) {
    return of(maxBlocks, applicationShare, maxHeapBytes, QuotaOwner::ofApplication, SpillPolicy.contextAware());
  }

  /**
   * As {@link #of(int, double, long)}, the share being an owner's ({@link QuotaOwner}): all the applications of
   * one user, as {@code ownerOf} names it, share it; a block costs what it takes under {@code policy}.
   */
  public static BlockQuota of(int maxBlocks, double share, long maxHeapBytes, Function<String, String> ownerOf,
      SpillPolicy policy) {
    if (maxBlocks > 0) {
      return new BlockQuota(ApplicationShares.of(maxBlocks, share, ownerOf), false, 1, 0);
    }
    long max = maxHeapBytes / 2 / HEAP_BYTES_PER_UNIT;
    return new BlockQuota(ApplicationShares.of(max, share, ownerOf), true,
        policy.ranksByReduce() ? 1 : GROUPED_BLOCK_UNITS, MAP_ATTEMPT_UNITS);
  }

  /**
   * The limits, in all and for one owner: blocks, or units of heap of which a wide shuffle's block takes one (the
   * blocks of such a shuffle a worker holds).
   */
  public record Limits(long maxBlocks, long maxBlocksPerOwner) {}

  public Limits limits() {
    return new Limits(blocks.max(), blocks.maxPerApplication());
  }

  /** What the limit counts held now, in all: blocks, or units. */
  long held() {
    return blocks.total();
  }

  /** What one more block costs: a block's, and its map attempt's entry if it {@code opensMapAttempt} here. */
  int cost(boolean opensMapAttempt) {
    return blockUnits + (opensMapAttempt ? mapAttemptUnits : 0);
  }

  /** What a map attempt's entry costs, given back when its last block goes. */
  int mapAttemptCost() {
    return mapAttemptUnits;
  }

  /** What a block costs alone, given back when it goes. */
  int blockCost() {
    return blockUnits;
  }

  /** Why one more block like {@code id} cannot be held, or null when it can. */
  ScacheException refusal(BlockId id, boolean opensMapAttempt) {
    int cost = cost(opensMapAttempt);
    if (!blocks.fitsInAll(cost)) {
      return new ScacheException(Status.LIMIT_EXCEEDED, "this worker holds " + counted(blocks.total()) + ", its "
          + "limit (scache.worker.blocks.max" + (derived ? " 0: half its heap" : "") + "); " + id + " is refused");
    }
    if (!blocks.fitsApplication(id.appId(), cost)) {
      return new ScacheException(Status.LIMIT_EXCEEDED, blocks.describeOwnerOf(id.appId()) + " holds "
          + counted(blocks.heldByOwnerOf(id.appId())) + " on this worker (application " + id.appId() + " "
          + blocks.heldBy(id.appId()) + "), its share of the worker's limit "
          + "(scache.worker.blocks.application.share); " + id + " is refused");
    }
    return null;
  }

  private String counted(long n) {
    return derived ? n + " units of block metadata (" + HEAP_BYTES_PER_UNIT + " bytes of heap each: a block "
        + blockUnits + ", a map attempt's entry " + mapAttemptUnits + ")" : n + " blocks";
  }

  /**
   * Whose prefetched copies may be dropped to make room for {@code id}, a block put by a map: any
   * application's when the worker is at its limit in all, the applications of {@code id}'s owner when that
   * owner is at its share; null when the block fits already.
   */
  Predicate<String> copiesThatMakeRoomFor(BlockId id, boolean opensMapAttempt) {
    int cost = cost(opensMapAttempt);
    if (!blocks.fitsInAll(cost)) {
      return app -> true;
    }
    if (!blocks.fitsApplication(id.appId(), cost)) {
      return app -> blocks.sameOwner(app, id.appId());
    }
    return null;
  }

  /** {@code units} more of application {@code appId} are held. */
  void added(String appId, int units) {
    if (units > 0) {
      blocks.add(appId, units);
    }
  }

  /** {@code units} of application {@code appId} are no longer held. */
  void removed(String appId, int units) {
    if (units > 0) {
      blocks.remove(appId, units);
    }
  }
}
