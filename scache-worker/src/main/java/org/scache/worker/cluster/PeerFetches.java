package org.scache.worker.cluster;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.scache.common.BlockId;
import org.scache.common.WorkerInfo;

/** Fetches blocks from the worker that holds them. */
public interface PeerFetches {
  /**
   * The blocks {@code ids}, all held by {@code holder}, in that order. Fails with BLOCK_NOT_FOUND when
   * the holder lacks one of them or cannot be reached (then its blocks are lost), with
   * MALFORMED_MESSAGE when its answer's sizes do not add up, or with the holder's status.
   */
  CompletableFuture<BlockBatch> fetch(WorkerInfo holder, List<BlockId> ids);
}
