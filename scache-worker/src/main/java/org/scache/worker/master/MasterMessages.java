package org.scache.worker.master;

import java.util.List;
import org.scache.common.ShuffleKey;
import org.scache.common.WorkerInfo;
import org.scache.common.shuffle.BlockSize;
import org.scache.common.shuffle.ReduceMove;
import org.scache.common.shuffle.ShufflePlacement;
import org.scache.worker.prefetch.Prefetcher;
import org.scache.worker.store.BlockStore;

/**
 * Where every message the master sends a worker arrives, as domain values: a shuffle's placement
 * (learned by the store's rounds, by the placement's peers, then acted on by the prefetcher), the
 * rounds some worker keeps only in part, a map's output ready after the placement (its other
 * attempts are void, and its blocks of reduces placed here are copied), a shuffle read where its maps ran (its
 * blocks are no longer copied), and a shuffle whose copies are held back until its application lets them go.
 */
public final class MasterMessages {
  private final BlockStore store;
  private final Prefetcher prefetcher;

  public MasterMessages(BlockStore store, Prefetcher prefetcher) {
    this.store = store;
    this.prefetcher = prefetcher;
  }

  /** The master placed a shuffle: the store learns it (its placement book), then what is placed here is prefetched. */
  public void shuffleScheduled(ShufflePlacement placement, long submissionTimeMillis, List<ReduceMove> moves) {
    store.scheduled(placement, submissionTimeMillis, moves);
    prefetcher.onScheduled(placement, moves);
  }

  /** The rounds of a shuffle that some worker keeps only in part, cluster-wide. */
  public void roundsIncomplete(ShuffleKey shuffle, List<Integer> rounds) {
    store.incompleteInCluster(shuffle, rounds);
  }

  /** The application reads the shuffle where its maps ran: its blocks are no longer copied here. */
  public void readInPlace(ShuffleKey shuffle) {
    prefetcher.readInPlace(shuffle);
  }

  /** The application holds back ({@code held}) or lets go the copies of the shuffle's blocks to this worker. */
  public void holdCopies(ShuffleKey shuffle, boolean held) {
    prefetcher.holdCopies(shuffle, held);
  }

  /** Map {@code mapId} finished after its shuffle was placed; {@code holder} holds its final attempt's blocks. */
  public void mapOutputReady(ShuffleKey shuffle, int mapId, int attempt, WorkerInfo holder, List<BlockSize> blocks) {
    // other attempts of the map are void now, here as on the master
    store.mapFinished(shuffle, mapId, attempt);
    prefetcher.onMapOutput(shuffle, holder, blocks);
  }
}
