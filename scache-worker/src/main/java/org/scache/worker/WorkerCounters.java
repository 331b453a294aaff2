package org.scache.worker;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/** What a worker has done since it started, as reported by {@code GET_WORKER_STATS}. */
final class WorkerCounters {
  final LongAdder putBlocks = new LongAdder();
  final LongAdder putBytes = new LongAdder();
  final LongAdder duplicatePuts = new LongAdder();
  final LongAdder refusedPuts = new LongAdder();
  final LongAdder localReadBlocks = new LongAdder();
  final LongAdder localReadBytes = new LongAdder();
  final LongAdder remoteReadBlocks = new LongAdder();
  final LongAdder remoteReadBytes = new LongAdder();
  final LongAdder servedFetchBlocks = new LongAdder();
  final LongAdder servedFetchBytes = new LongAdder();
  final LongAdder authFailures = new LongAdder();
  /** Blocks, leases and connections refused at a limit. */
  final LongAdder limitRefusals = new LongAdder();
  final LongAdder spillCompactedBlocks = new LongAdder();
  final LongAdder leasesExpired = new LongAdder();
  final LongAdder prefetchedBlocks = new LongAdder();
  final LongAdder prefetchedBytes = new LongAdder();
  final LongAdder prefetchFetches = new LongAdder();
  final LongAdder prefetchFailures = new LongAdder();
  final LongAdder prefetchSkippedBlocks = new LongAdder();
  final LongAdder prefetchedReadBlocks = new LongAdder();
  final LongAdder localCommits = new LongAdder();
  final LongAdder localPins = new LongAdder();
  final LongAdder spilledBlocks = new LongAdder();
  final LongAdder spilledBytes = new LongAdder();
  final LongAdder spillRefused = new LongAdder();
  final LongAdder spilledOnPut = new LongAdder();
  final LongAdder reloadedBlocks = new LongAdder();
  final LongAdder reloadedBytes = new LongAdder();
  final LongAdder spillReadBlocks = new LongAdder();
  final LongAdder spillReadBytes = new LongAdder();
  final LongAdder droppedCopies = new LongAdder();
  final LongAdder checksumFailures = new LongAdder();
  final LongAdder committedFreedBlocks = new LongAdder();
  final LongAdder busyPuts = new LongAdder();
  /** The same per shuffle, for the master's explanation of each shuffle. */
  final ShuffleActivityLog activity = new ShuffleActivityLog();

  /** Every counter, named as in {@link WorkerStatsCatalog}. */
  Map<String, Long> snapshot() {
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
    m.put("read.prefetched.blocks", prefetchedReadBlocks.sum());
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
    return m;
  }
}
