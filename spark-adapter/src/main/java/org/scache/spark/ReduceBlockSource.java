package org.scache.spark;

import java.nio.ByteBuffer;
import java.util.AbstractMap.SimpleImmutableEntry;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.SortedMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.apache.spark.shuffle.FetchFailedException;
import org.apache.spark.shuffle.ShuffleReadMetricsReporter;
import org.scache.client.ReduceInput;
import org.scache.client.ReduceInputParts;
import org.scache.client.ScacheClient;
import org.scache.common.BlockId;
import org.scache.common.ScacheException;
import org.scache.common.shuffle.FinalAttempt;

/**
 * Reads the blocks of a task's reduce partitions through this node's worker: a task reading every
 * map's output of one reduce partition reads it in parts as its blocks land on the worker
 * ({@link ReduceInputParts}), decoding the first while the others still arrive; a task reading a
 * range of reduce partitions (coalesced by adaptive execution) asks for each reduce's whole input at
 * once, and asks ahead for the next reduces of the range while their bytes in flight stay under a bound
 * (Spark's {@code spark.reducer.maxSizeInFlight}), so that many small partitions do not wait for one
 * round trip after the other; a read of a range of maps (an adaptive skew split, or a local read map by
 * map) asks for its blocks one by one, ahead of their reading under the same bound. Only the attempts the
 * driver kept are used; a block SCache cannot give becomes a fetch failure naming its map, so that Spark runs
 * the map again.
 */
final class ReduceBlockSource {
  /** A block's bytes, with what the reader needs to decode it. */
  record ReadBlock(ExpectedBlock block, ByteBuffer data) {}

  private final ScacheClient client;
  private final String appId;
  private final int shuffleId;
  private final boolean everyMap;
  private final ShuffleReadMetricsReporter metrics;
  private final long maxBytesInFlight;
  /** The reduces to ask for next, in the order they are read, with their expected bytes. */
  private final ArrayDeque<Map.Entry<Integer, Long>> toRequest = new ArrayDeque<>();
  private final boolean inParts;
  private final Map<Integer, Requested> requested = new HashMap<>();
  private long bytesInFlight;
  /** The partition being read in parts, if any: closed when the task ends, however it ends. */
  private InParts openParts;

  /** A reduce's input asked for ahead of its read. */
  private record Requested(CompletableFuture<ReduceInput> input, long bytes) {}

  /** Of a read of a range of maps: its blocks to ask for next, in the order they are read. */
  private final ArrayDeque<ExpectedBlock> blocksToRequest = new ArrayDeque<>();
  /** Of a read of a range of maps: its blocks asked for ahead and not yet read, in the order they are read. */
  private final ArrayDeque<Map.Entry<ExpectedBlock, CompletableFuture<ByteBuffer>>> blocksRequested =
      new ArrayDeque<>();

  /**
   * A source for the reduces of {@code byReduce}, which are read in its order; with {@code everyMap}, one
   * reduce is read in parts, and of several, up to {@code maxBytesInFlight} of their inputs are asked for
   * ahead (always the next one).
   */
  ReduceBlockSource(ScacheClient client, String appId, int shuffleId, boolean everyMap,
      ShuffleReadMetricsReporter metrics, SortedMap<Integer, List<ExpectedBlock>> byReduce, long maxBytesInFlight) {
    this.client = client;
    this.appId = appId;
    this.shuffleId = shuffleId;
    this.everyMap = everyMap;
    this.metrics = metrics;
    this.maxBytesInFlight = maxBytesInFlight;
    this.inParts = everyMap && byReduce.size() == 1;
    if (everyMap && !inParts) {
      byReduce.forEach((reduce, blocks) -> toRequest.add(
          Map.entry(reduce, blocks.stream().mapToLong(ExpectedBlock::size).sum())));
    }
    if (!everyMap) {
      byReduce.values().forEach(blocksToRequest::addAll);
    }
  }

  /** Asks for the next blocks of a read of a range of maps while their bytes in flight stay under the bound. */
  private void requestBlocksAhead() {
    while (!blocksToRequest.isEmpty() && (blocksRequested.isEmpty()
        || bytesInFlight + blocksToRequest.peek().size() <= maxBytesInFlight)) {
      ExpectedBlock next = blocksToRequest.poll();
      blocksRequested.add(Map.entry(next, client.getBlockAsync(blockId(next))));
      bytesInFlight += next.size();
    }
  }

  /** The bytes of {@code b}, a block of a read of a range of maps, asked for ahead where it was. */
  private ByteBuffer aheadOrOne(ExpectedBlock b) throws FetchFailedException {
    requestBlocksAhead();
    Map.Entry<ExpectedBlock, CompletableFuture<ByteBuffer>> head = blocksRequested.peek();
    if (head == null || !head.getKey().equals(b)) {
      return one(b);
    }
    blocksRequested.poll();
    bytesInFlight -= b.size();
    try {
      return head.getValue().join();
    } catch (RuntimeException e) {
      throw lost(b, ScacheException.from(e));
    } finally {
      requestBlocksAhead();
    }
  }

  /** Asks for the next reduces' inputs while their bytes in flight stay under the bound. */
  private void requestAhead() {
    while (!toRequest.isEmpty() && (requested.isEmpty() || bytesInFlight + toRequest.peek().getValue()
        <= maxBytesInFlight)) {
      Map.Entry<Integer, Long> next = toRequest.poll();
      requested.put(next.getKey(), new Requested(client.getReduceInputAsync(shuffleId, next.getKey()),
          next.getValue()));
      bytesInFlight += next.getValue();
    }
  }

  /** Reduce {@code reduceId}'s whole input, asked for ahead where it was. */
  private ReduceInput reduceInput(int reduceId) {
    requestAhead();
    Requested r = requested.remove(reduceId);
    if (r == null) {
      return client.getReduceInput(shuffleId, reduceId);
    }
    bytesInFlight -= r.bytes;
    try {
      return r.input.join();
    } catch (CompletionException e) {
      throw e.getCause() instanceof ScacheException se ? se : e;
    } finally {
      requestAhead();
    }
  }

  /**
   * The bytes of {@code expected}, blocks of one reduce partition: in the order given, or, read in parts,
   * in the order they land. A block SCache cannot give is a {@link FetchFailedException}, thrown here or,
   * read in parts, from the iterator.
   */
  Iterator<ReadBlock> read(int reduceId, List<ExpectedBlock> expected) throws FetchFailedException {
    if (expected.isEmpty()) {
      return Collections.emptyIterator();
    }
    if (!inParts) {
      return readWhole(reduceId, expected).iterator();
    }
    close();
    List<FinalAttempt> attempts = expected.stream().map(b -> new FinalAttempt(b.mapIndex(), b.attempt())).toList();
    openParts = new InParts(client.readReduceInputInParts(shuffleId, reduceId, attempts), expected);
    return openParts;
  }

  /**
   * Gives back the buffers of the partition being read in parts, and of the part asked for ahead: the
   * task has ended, so nothing reads them any more.
   */
  void close() {
    if (openParts != null) {
      openParts.close();
      openParts = null;
    }
  }

  private List<ReadBlock> readWhole(int reduceId, List<ExpectedBlock> expected) throws FetchFailedException {
    long start = System.nanoTime();
    Map<Integer, ReduceInput.Block> byMap = new HashMap<>();
    if (everyMap) {
      try {
        for (ReduceInput.Block b : reduceInput(reduceId).blocks()) {
          byMap.put(b.blockId().mapId(), b);
        }
      } catch (ScacheException e) {
        // read the blocks one by one below, to name the map whose output is lost
      }
    }
    List<ReadBlock> out = new ArrayList<>(expected.size());
    for (ExpectedBlock b : expected) {
      ReduceInput.Block got = byMap.get(b.mapIndex());
      out.add(counted(b, got != null && got.blockId().attempt() == b.attempt() ? got.data()
          : everyMap ? one(b) : aheadOrOne(b)));
    }
    metrics.incFetchWaitTime((System.nanoTime() - start) / 1_000_000);
    return out;
  }

  /**
   * One reduce partition's blocks, each part of its input decoded while the worker waits for the next;
   * what the parts did not give (another attempt, or a part that failed) is read block by block, so that a
   * lost block fails naming its map.
   */
  private final class InParts implements Iterator<ReadBlock> {
    private final ReduceInputParts parts;
    private final Map<Integer, ExpectedBlock> missing = new LinkedHashMap<>();
    /** Blocks to give, each with the block of the current part it lies in (none: read on its own). */
    private final ArrayDeque<Map.Entry<ReadBlock, ReduceInput.Block>> ready = new ArrayDeque<>();
    /** The part whose blocks are being read: released (its buffers reused) once the reader asks past them. */
    private ReduceInput current;
    /** The block given last, if it lies in the current part: released once the reader asks for the next. */
    private ReduceInput.Block given;
    private boolean partsDone;

    InParts(ReduceInputParts parts, List<ExpectedBlock> expected) {
      this.parts = parts;
      expected.forEach(b -> missing.put(b.mapIndex(), b));
    }

    /**
     * Whether a block is left. The reader calls it once it has read the block given last to its end
     * (that block's buffer goes back for reuse here), or before the first.
     */
    @Override
    public boolean hasNext() {
      if (given != null) {
        current.release(given);
        given = null;
      }
      if (ready.isEmpty()) {
        // Spark has read every block given so far to its end
        releaseCurrent();
      }
      while (ready.isEmpty() && !missing.isEmpty()) {
        long start = System.nanoTime();
        if (partsDone) {
          ExpectedBlock b = missing.values().iterator().next();
          missing.remove(b.mapIndex());
          try {
            ready.add(new SimpleImmutableEntry<>(counted(b, one(b)), null));
          } catch (FetchFailedException e) {
            throw ScacheShuffleReader.sneaky(e);
          }
        } else {
          takeNextPart();
        }
        metrics.incFetchWaitTime((System.nanoTime() - start) / 1_000_000);
      }
      return !ready.isEmpty();
    }

    void close() {
      given = null;
      releaseCurrent();
      parts.close();
    }

    private void releaseCurrent() {
      if (current != null) {
        current.release();
        current = null;
      }
    }

    private void takeNextPart() {
      try {
        ReduceInput part = parts.next();
        current = part;
        partsDone = part.blocks().isEmpty();
        for (ReduceInput.Block got : part.blocks()) {
          ExpectedBlock b = missing.get(got.blockId().mapId());
          if (b != null && b.attempt() == got.blockId().attempt()) {
            missing.remove(b.mapIndex());
            ready.add(new SimpleImmutableEntry<>(counted(b, got.data()), got));
          }
        }
      } catch (ScacheException e) {
        partsDone = true; // read the rest block by block, to name the map whose output is lost
      }
    }

    @Override
    public ReadBlock next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      Map.Entry<ReadBlock, ReduceInput.Block> next = ready.poll();
      given = next.getValue();
      return next.getKey();
    }
  }

  /** {@code data} as the read block {@code b}, counted in the task's read metrics. */
  private ReadBlock counted(ExpectedBlock b, ByteBuffer data) {
    metrics.incLocalBlocksFetched(1);
    metrics.incLocalBytesRead(data.remaining());
    return new ReadBlock(b, data);
  }

  private ByteBuffer one(ExpectedBlock b) throws FetchFailedException {
    try {
      return ByteBuffer.wrap(client.getBlock(blockId(b)));
    } catch (ScacheException e) {
      throw lost(b, e);
    }
  }

  private BlockId blockId(ExpectedBlock b) {
    return new BlockId(appId, shuffleId, b.mapIndex(), b.attempt(), b.reduceId());
  }

  /** The failure that has Spark run the map of {@code b} again. */
  private FetchFailedException lost(ExpectedBlock b, ScacheException e) {
    return new FetchFailedException(b.location(), shuffleId, b.mapTaskId(), b.mapIndex(), b.reduceId(),
        "SCache cannot read block " + blockId(b) + ": " + e.getMessage(), e);
  }
}
