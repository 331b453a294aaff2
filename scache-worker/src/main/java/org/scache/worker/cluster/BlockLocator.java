package org.scache.worker.cluster;

import java.util.concurrent.CompletableFuture;
import org.scache.common.ShuffleKey;

/** Asks the master where blocks are stored. */
public interface BlockLocator {
  /** For {@code mapId}: every finished map. */
  int ALL_MAPS = -1;

  /**
   * The holders of the final blocks of {@code reduceId} in {@code shuffle}: of one map, or of every
   * finished map ({@link #ALL_MAPS}). Fails with the master's status, or with CONNECTION_FAILED or
   * TIMEOUT when the master cannot be reached.
   */
  CompletableFuture<LocatedBlocks> locate(ShuffleKey shuffle, int reduceId, int mapId);
}
