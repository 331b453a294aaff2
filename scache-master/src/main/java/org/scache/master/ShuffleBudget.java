package org.scache.master;

import java.util.function.Function;
import org.scache.common.ApplicationShares;
import org.scache.common.QuotaOwner;
import org.scache.common.ScacheException;
import org.scache.common.protocol.Status;
import org.scache.common.shuffle.PartitionerKind;
import org.scache.common.shuffle.ShuffleSpec;

/**
 * The master's heap, budgeted among registered shuffles: a shuffle is charged, when it is
 * registered, an estimate of what the master will hold for it ({@link #costOf}), and
 * a registration that would pass the budget, or its user's share of it, is refused with
 * {@link Status#LIMIT_EXCEEDED} before anything is allocated. Not thread-safe: the
 * {@link ShuffleRegistry} calls it under its lock.
 */
final class ShuffleBudget {
  static final long BYTES_PER_TASK = 64;
  /** A reduce's bytes on one holder ({@link org.scache.master.predict.HeldBytes}). */
  static final long BYTES_PER_HELD_CELL = 4;
  /** The holders a shuffle's blocks are budgeted to be spread over, at most. */
  static final int HOLDERS_BUDGETED = 128;
  static final long BYTES_PER_SAMPLED_CELL = 24;

  private final ApplicationShares bytes;

  private ShuffleBudget(ApplicationShares bytes) {
    this.bytes = bytes;
  }

  static ShuffleBudget unlimited() {
    return new ShuffleBudget(ApplicationShares.unlimited());
  }

  /** {@code maxBytes} 0 means half of {@code maxHeapBytes}; an application gets {@code share} of it. */
  static ShuffleBudget of(long maxBytes, double share, long maxHeapBytes) {
    return of(maxBytes, share, maxHeapBytes, QuotaOwner::ofApplication);
  }

  /** As {@link #of(long, double, long)}, the share being an owner's: a user's applications share it. */
  static ShuffleBudget of(long maxBytes, double share, long maxHeapBytes, Function<String, String> ownerOf) {
    return new ShuffleBudget(ApplicationShares.of(maxBytes > 0 ? maxBytes : maxHeapBytes / 2, share, ownerOf));
  }

  /**
   * What the master is budgeted to hold for a shuffle of this shape: per map and reduce its entries and placement, a
   * bit per block (which blocks a finished map put), {@link #BYTES_PER_HELD_CELL} per reduce for each worker holding
   * blocks (one per map at most, budgeted up to {@link #HOLDERS_BUDGETED}), and for a sampled shuffle the samples'
   * counts.
   */
  static long costOf(ShuffleSpec s) {
    long cells = (long) s.numMaps() * s.numReduces();
    long held = (long) s.numReduces() * Math.min(s.numMaps(), HOLDERS_BUDGETED) * BYTES_PER_HELD_CELL;
    long sampled = s.partitioner() == PartitionerKind.HASH ? 0 : cells * BYTES_PER_SAMPLED_CELL;
    return ((long) s.numMaps() + s.numReduces()) * BYTES_PER_TASK + (cells + 7) / 8 + held + sampled;
  }

  /** Charges {@code s} to its application, or refuses it with LIMIT_EXCEEDED. Returns the charge. */
  long charge(ShuffleSpec s) {
    long cost = costOf(s);
    if (!bytes.fitsApplication(s.appId(), cost)) {
      throw new ScacheException(Status.LIMIT_EXCEEDED, s.appId() + "/shuffle_" + s.shuffleId() + " ("
          + s.numMaps() + " maps, " + s.numReduces() + " reduces) needs ~" + cost + " bytes of master memory; "
          + bytes.describeOwnerOf(s.appId()) + " holds " + bytes.heldByOwnerOf(s.appId()) + " of its "
          + bytes.maxPerApplication()
          + " (scache.master.shuffle.state.max.bytes × scache.master.shuffle.state.application.share)");
    }
    if (!bytes.fitsInAll(cost)) {
      throw new ScacheException(Status.LIMIT_EXCEEDED, s.appId() + "/shuffle_" + s.shuffleId() + " needs ~" + cost
          + " bytes of master memory; registered shuffles hold " + bytes.total() + " of " + bytes.max()
          + " (scache.master.shuffle.state.max.bytes)");
    }
    bytes.add(s.appId(), cost);
    return cost;
  }

  void release(String appId, long charge) {
    bytes.remove(appId, charge);
  }
}
