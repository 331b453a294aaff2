package org.scache.worker.requests;

import java.util.concurrent.CompletableFuture;
import org.scache.common.ShuffleKey;
import org.scache.worker.counters.WorkerCounters;
import org.scache.worker.master.MasterLink;
import org.scache.worker.prefetch.Prefetcher;
import org.scache.worker.store.BlockStore;

/**
 * What an application's requests, and its end, do to its shuffles on this worker: a map's final
 * attempt declared, a reduce committed, a shuffle or the whole application removed (every block,
 * prefetched copies included, and everything the worker knew of them).
 */
public final class ApplicationShuffles {
  private final BlockStore store;
  private final Prefetcher prefetcher;
  private final MasterLink master;
  private final AppSecrets secrets;
  private final WorkerCounters counters;

  public ApplicationShuffles(BlockStore store, Prefetcher prefetcher, MasterLink master, AppSecrets secrets,
      WorkerCounters counters) {
    this.store = store;
    this.prefetcher = prefetcher;
    this.master = master;
    this.secrets = secrets;
    this.counters = counters;
  }

  /**
   * Tells the master which attempt of a map is final, and only once it knows drops the map's other
   * attempts here: a MAP_FINISHED that does not reach the master leaves every attempt's blocks.
   */
  CompletableFuture<Void> mapFinished(ShuffleKey shuffle, int mapId, int attempt) {
    return master.mapFinished(shuffle, mapId, attempt).thenRun(() -> store.mapFinished(shuffle, mapId, attempt));
  }

  /** A reducer committed: its input blocks held here, in memory or spilled, are freed. */
  void reduceCommitted(ShuffleKey shuffle, int reduceId) {
    counters.committedFreedBlocks.add(store.reduceCommitted(shuffle, reduceId));
  }

  /** Frees every block of the shuffle, prefetched copies included. */
  void removeShuffle(ShuffleKey shuffle) {
    prefetcher.forgetShuffle(shuffle);
    store.removeShuffle(shuffle);
  }

  /** Frees every block of the application and forgets its secret. */
  public void removeApplication(String appId) {
    prefetcher.forgetApplication(appId);
    store.removeApplication(appId);
    secrets.forget(appId);
    master.forgetApplication(appId);
    counters.activity.forgetApplication(appId);
  }
}
