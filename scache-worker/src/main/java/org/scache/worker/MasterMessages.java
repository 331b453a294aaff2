package org.scache.worker;

import org.scache.common.ShuffleKey;
import org.scache.common.protocol.MapOutputReady;
import org.scache.common.protocol.RoundsIncomplete;
import org.scache.common.protocol.ShuffleScheduled;

/**
 * Where every message the master sends a worker arrives: a shuffle's placement (learned by the
 * store's rounds, by the placement's peers, then acted on by the prefetcher), the rounds some worker
 * keeps only in part, and a map's output ready after the placement (its other attempts are void,
 * and its blocks of reduces placed here are copied).
 */
final class MasterMessages {
  private final BlockStore store;
  private final Prefetcher prefetcher;

  MasterMessages(BlockStore store, Prefetcher prefetcher) {
    this.store = store;
    this.prefetcher = prefetcher;
  }

  /** The master placed a shuffle: the store learns it (its placement book), then what is placed here is prefetched. */
  void shuffleScheduled(ShuffleScheduled m) {
    store.scheduled(m.placement(), m.submissionTimeMillis(), m.moves());
    prefetcher.onScheduled(m.placement(), m.moves());
  }

  /** The rounds of a shuffle that some worker keeps only in part, cluster-wide. */
  void roundsIncomplete(RoundsIncomplete m) {
    store.incompleteInCluster(new ShuffleKey(m.appId(), m.shuffleId()), m.rounds());
  }

  /** A map finished after its shuffle was placed. */
  void mapOutputReady(MapOutputReady m) {
    ShuffleKey shuffle = new ShuffleKey(m.appId(), m.shuffleId());
    // other attempts of the map are void now, here as on the master
    store.mapFinished(shuffle, m.mapId(), m.attempt());
    prefetcher.onMapOutput(shuffle, m.holder(), m.blocks());
  }
}
