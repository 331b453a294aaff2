package org.scache.spark;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.apache.spark.shuffle.FetchFailedException;
import org.apache.spark.shuffle.ShuffleReadMetricsReporter;
import org.scache.client.ReduceInput;
import org.scache.client.ScacheClient;
import org.scache.common.BlockId;
import org.scache.common.ScacheException;

/**
 * Reads the blocks of a task's reduce partitions through this node's worker: a read of every map's
 * output asks for each reduce's whole input at once (prefetched blocks are served from the worker's
 * memory), and asks ahead for the next reduces of the task's range while their bytes in flight stay
 * under a bound (Spark's {@code spark.reducer.maxSizeInFlight}), so that a coalesced range of many
 * small partitions does not wait for one round trip after the other; a read of a range of maps (an
 * adaptive skew split) asks for its blocks one by one. Only the attempts the driver kept are used; a
 * block SCache cannot give becomes a fetch failure naming its map, so that Spark runs the map again.
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
  private final Map<Integer, Requested> requested = new HashMap<>();
  private long bytesInFlight;

  /** A reduce's input asked for ahead of its read. */
  private record Requested(CompletableFuture<ReduceInput> input, long bytes) {}

  /**
   * A source for the reduces of {@code byReduce}, which are read in its order; with {@code everyMap},
   * up to {@code maxBytesInFlight} of their inputs are asked for ahead (always the next one).
   */
  ReduceBlockSource(ScacheClient client, String appId, int shuffleId, boolean everyMap,
      ShuffleReadMetricsReporter metrics, SortedMap<Integer, List<ExpectedBlock>> byReduce, long maxBytesInFlight) {
    this.client = client;
    this.appId = appId;
    this.shuffleId = shuffleId;
    this.everyMap = everyMap;
    this.metrics = metrics;
    this.maxBytesInFlight = maxBytesInFlight;
    if (everyMap) {
      byReduce.forEach((reduce, blocks) -> toRequest.add(
          Map.entry(reduce, blocks.stream().mapToLong(ExpectedBlock::size).sum())));
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

  /** The bytes of {@code expected}, blocks of one reduce partition, in the order given. */
  List<ReadBlock> read(int reduceId, List<ExpectedBlock> expected) throws FetchFailedException {
    if (expected.isEmpty()) {
      return List.of();
    }
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
      ByteBuffer data = got != null && got.blockId().attempt() == b.attempt() ? got.data() : one(b);
      metrics.incLocalBlocksFetched(1);
      metrics.incLocalBytesRead(data.remaining());
      out.add(new ReadBlock(b, data));
    }
    metrics.incFetchWaitTime((System.nanoTime() - start) / 1_000_000);
    return out;
  }

  private ByteBuffer one(ExpectedBlock b) throws FetchFailedException {
    BlockId id = new BlockId(appId, shuffleId, b.mapIndex(), b.attempt(), b.reduceId());
    try {
      return ByteBuffer.wrap(client.getBlock(id));
    } catch (ScacheException e) {
      throw new FetchFailedException(b.location(), shuffleId, b.mapTaskId(), b.mapIndex(), b.reduceId(),
          "SCache cannot read block " + id + ": " + e.getMessage(), e);
    }
  }
}
