package org.scache.worker.counters;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/** What a worker has done since it started, as reported by {@code GET_WORKER_STATS}. */
public final class WorkerCounters {
  public final LongAdder putBlocks = new LongAdder();
  public final LongAdder putBytes = new LongAdder();
  public final LongAdder duplicatePuts = new LongAdder();
  public final LongAdder refusedPuts = new LongAdder();
  public final LongAdder localReadBlocks = new LongAdder();
  public final LongAdder localReadBytes = new LongAdder();
  public final LongAdder remoteReadBlocks = new LongAdder();
  public final LongAdder remoteReadBytes = new LongAdder();
  public final LongAdder servedFetchBlocks = new LongAdder();
  public final LongAdder servedFetchBytes = new LongAdder();
  public final LongAdder authFailures = new LongAdder();
  /** Blocks, leases and connections refused at a limit. */
  public final LongAdder limitRefusals = new LongAdder();
  public final LongAdder spillCompactedBlocks = new LongAdder();
  public final LongAdder leasesExpired = new LongAdder();
  public final LongAdder prefetchedBlocks = new LongAdder();
  public final LongAdder prefetchedBytes = new LongAdder();
  public final LongAdder prefetchFetches = new LongAdder();
  public final LongAdder prefetchFailures = new LongAdder();
  public final LongAdder prefetchSkippedBlocks = new LongAdder();
  public final LongAdder prefetchDroppedBlocks = new LongAdder();
  public final LongAdder prefetchedReadBlocks = new LongAdder();
  public final LongAdder readsLocatedHere = new LongAdder();
  /** Connections that opened the shared memory, once each. */
  public final LongAdder localOpens = new LongAdder();
  public final LongAdder localCommits = new LongAdder();
  public final LongAdder localPins = new LongAdder();
  public final LongAdder spilledBlocks = new LongAdder();
  public final LongAdder spilledBytes = new LongAdder();
  public final LongAdder spillRefused = new LongAdder();
  public final LongAdder spilledOnPut = new LongAdder();
  public final LongAdder reloadedBlocks = new LongAdder();
  public final LongAdder reloadedBytes = new LongAdder();
  public final LongAdder spillReadBlocks = new LongAdder();
  public final LongAdder spillReadBytes = new LongAdder();
  public final LongAdder droppedCopies = new LongAdder();
  public final LongAdder checksumFailures = new LongAdder();
  public final LongAdder committedFreedBlocks = new LongAdder();
  public final LongAdder busyPuts = new LongAdder();
  public final LongAdder stalledPuts = new LongAdder();
  /** The same per shuffle, for the master's explanation of each shuffle. */
  public final ShuffleActivityLog activity = new ShuffleActivityLog();

  /** Every counter, named as in {@code WorkerStatsCatalog}. */
  public Map<String, Long> snapshot() {
    Map<String, Long> m = new LinkedHashMap<>();
    m.put("put.blocks", putBlocks.sum());
    m.put("put.bytes", putBytes.sum());
    m.put("put.duplicates", duplicatePuts.sum());
    m.put("put.refused", refusedPuts.sum());
    m.put("read.local.blocks", localReadBlocks.sum());
    m.put("read.local.bytes", localReadBytes.sum());
    m.put("read.remote.blocks", remoteReadBlocks.sum());
    m.put("read.remote.bytes", remoteReadBytes.sum());
    m.put("fetch.served.blocks", servedFetchBlocks.sum());
    m.put("fetch.served.bytes", servedFetchBytes.sum());
    m.put("auth.failures", authFailures.sum());
    m.put("limit.refusals", limitRefusals.sum());
    m.put("local.leases.expired", leasesExpired.sum());
    m.put("prefetch.blocks", prefetchedBlocks.sum());
    m.put("prefetch.bytes", prefetchedBytes.sum());
    m.put("prefetch.fetches", prefetchFetches.sum());
    m.put("prefetch.failures", prefetchFailures.sum());
    m.put("prefetch.skipped.blocks", prefetchSkippedBlocks.sum());
    m.put("prefetch.dropped.blocks", prefetchDroppedBlocks.sum());
    m.put("read.prefetched.blocks", prefetchedReadBlocks.sum());
    m.put("read.inputs.located.here", readsLocatedHere.sum());
    m.put("shm.opened", localOpens.sum());
    m.put("shm.commit.blocks", localCommits.sum());
    m.put("shm.pin.blocks", localPins.sum());
    m.put("spill.blocks", spilledBlocks.sum());
    m.put("spill.bytes", spilledBytes.sum());
    m.put("spill.refused", spillRefused.sum());
    m.put("spill.on.put.blocks", spilledOnPut.sum());
    m.put("spill.reloaded.blocks", reloadedBlocks.sum());
    m.put("spill.reloaded.bytes", reloadedBytes.sum());
    m.put("spill.read.blocks", spillReadBlocks.sum());
    m.put("spill.read.bytes", spillReadBytes.sum());
    m.put("spill.checksum.failures", checksumFailures.sum());
    m.put("spill.compacted.blocks", spillCompactedBlocks.sum());
    m.put("copies.dropped", droppedCopies.sum());
    m.put("commit.freed.blocks", committedFreedBlocks.sum());
    m.put("put.busy", busyPuts.sum());
    m.put("put.stalled", stalledPuts.sum());
    return m;
  }
}
