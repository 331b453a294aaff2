package org.scache.worker.prefetch;

import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.scache.common.BlockId;
import org.scache.common.ScacheException;
import org.scache.common.ShuffleKey;
import org.scache.common.protocol.Status;
import org.scache.common.shuffle.BlockSize;
import org.scache.worker.cluster.BlockBatch;
import org.scache.worker.counters.WorkerCounters;
import org.scache.worker.store.CopyLanding;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the {@link Prefetcher}'s fetched batches land: each reduce's blocks of one answer as slices of one region
 * of this worker's memory ({@link CopyLanding}), one by one when they do not fit one region, and counted. A
 * shuffle removed while its blocks were on their way is not landed; {@link #awaitLandingInProgress} lets the
 * removal wait for a landing under way.
 */
final class PrefetchLanding {
  private static final Logger LOG = LoggerFactory.getLogger(PrefetchLanding.class);

  private final CopyLanding copies;
  private final WorkerCounters counters;
  private final Object lock = new Object();

  PrefetchLanding(CopyLanding copies, WorkerCounters counters) {
    this.copies = copies;
    this.counters = counters;
  }

  /**
   * Stores the blocks {@code asked} for, as {@code fetched} answers them (in the same order, sorted by reduce),
   * one region per reduce, those of shuffles {@code stillCopied} accepts. Releases the answer's payload.
   */
  void land(List<BlockId> asked, BlockBatch fetched, Predicate<ShuffleKey> stillCopied) {
    ByteBuf payload = fetched.payload();
    try {
      if (fetched.sizes().size() != asked.size()) {
        throw new ScacheException(Status.MALFORMED_MESSAGE, "a prefetch answer names " + fetched.sizes().size()
            + " blocks for " + asked.size() + " asked for");
      }
      synchronized (lock) {
        int offset = payload.readerIndex();
        int i = 0;
        while (i < asked.size()) {
          BlockId first = asked.get(i);
          int end = i;
          long bytes = 0;
          List<BlockSize> group = new ArrayList<>();
          while (end < asked.size() && sameReduce(first, asked.get(end))) {
            BlockSize b = fetched.sizes().get(end);
            group.add(b);
            bytes += b.size();
            end++;
          }
          if (stillCopied.test(first.shuffle())) {
            landGroup(group, payload.slice(offset, (int) bytes));
          }
          offset += (int) bytes;
          i = end;
        }
      }
    } finally {
      payload.release();
    }
  }

  /** Returns once no landing is under way: one that started before a shuffle's removal has ended. */
  void awaitLandingInProgress() {
    synchronized (lock) {
      // a landing in progress finishes before the caller removes the shuffle's blocks
    }
  }

  private void landGroup(List<BlockSize> group, ByteBuf data) {
    try {
      count(group, copies.land(group, data));
    } catch (ScacheException e) {
      if (e.status() != Status.BLOCK_TOO_LARGE || group.size() == 1) {
        counters.prefetchSkippedBlocks.add(group.size());
        LOG.debug("prefetched blocks of reduce {} not kept: {}", group.get(0).blockId().reduceId(), e.getMessage());
        return;
      }
      // the reduce's blocks do not fit one region: keep them one by one
      int offset = data.readerIndex();
      for (BlockSize b : group) {
        try {
          count(List.of(b), copies.land(List.of(b), data.slice(offset, (int) b.size())));
        } catch (ScacheException one) {
          counters.prefetchSkippedBlocks.increment();
        }
        offset += (int) b.size();
      }
    }
  }

  private void count(List<BlockSize> group, int stored) {
    if (stored > 0) {
      long bytes = group.stream().mapToLong(BlockSize::size).sum();
      counters.prefetchedBlocks.add(stored);
      counters.prefetchedBytes.add(bytes);
      counters.activity.prefetched(group.get(0).blockId().shuffle(), bytes);
    }
  }

  private static boolean sameReduce(BlockId a, BlockId b) {
    return a.reduceId() == b.reduceId() && a.shuffleId() == b.shuffleId() && a.appId().equals(b.appId());
  }
}
