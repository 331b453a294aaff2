package org.scache.client;

import java.util.Optional;
import org.scache.common.config.ScacheOptions;
import org.scache.common.protocol.BlockRoom;

/**
 * Whether a shuffle's blocks fit in the cluster before its job sends it through SCache: a shuffle of M maps
 * and R reduces puts M × R blocks, which the live workers must be able to hold for one owner. A map whose
 * node's worker is full puts its blocks on the others, so the room is the cluster's. A shuffle that does
 * not fit uses its framework's own shuffle from the start, rather than meet the limit half-way. The master answers
 * the room left after the blocks the shuffles registered already have still to put, so that jobs that start
 * together do not count on the same room.
 */
public final class ShuffleRoom {
  private ShuffleRoom() {}

  /** Why a shuffle of {@code numMaps} × {@code numReduces} blocks does not fit in {@code room}; empty when it does. */
  public static Optional<String> problem(BlockRoom room, long numMaps, long numReduces) {
    return problem(room, room.forOneOwner(), numMaps, numReduces);
  }

  /**
   * Why a shuffle of {@code numMaps} × {@code numReduces} blocks does not fit in the {@code forOneOwner} blocks left
   * of {@code room} for one user (after the shuffles of the job before it); empty when it does, or when no worker
   * reported its limits (the puts find out then).
   */
  public static Optional<String> problem(BlockRoom room, long forOneOwner, long numMaps, long numReduces) {
    if (room.workers() == 0) {
      return Optional.empty();
    }
    return problem(forOneOwner, room.workers(), numMaps, numReduces).map(why -> room.toCome() == 0 ? why
        : why + "; the shuffles registered already have " + room.toCome() + " blocks still to put, which the master "
        + "books");
  }

  /**
   * Why a shuffle of {@code numMaps} × {@code numReduces} blocks does not fit in the {@code forOneOwner} more blocks
   * {@code workers} live workers hold for one user; empty when it does.
   */
  private static Optional<String> problem(long forOneOwner, int workers, long numMaps, long numReduces) {
    long blocks = BlockRoom.blocksOf(numMaps, numReduces);
    if (blocks <= forOneOwner) {
      return Optional.empty();
    }
    return Optional.of("its " + numMaps + " maps × " + numReduces + " reduces put " + blocks + " blocks, and the "
        + workers + " live workers hold " + Math.max(0, forOneOwner) + " more for one user ("
        + ScacheOptions.WORKER_BLOCKS_MAX.key() + ", " + ScacheOptions.WORKER_BLOCKS_APPLICATION_SHARE.key() + ")");
  }
}
