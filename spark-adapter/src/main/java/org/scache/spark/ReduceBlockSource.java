package org.scache.spark;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.shuffle.FetchFailedException;
import org.apache.spark.shuffle.ShuffleReadMetricsReporter;
import org.scache.client.ReduceInput;
import org.scache.client.ScacheClient;
import org.scache.common.BlockId;
import org.scache.common.ScacheException;

/**
 * Reads the blocks of one reduce partition through this node's worker: a read of every map's output
 * asks for the reduce's whole input at once (prefetched blocks are served from the worker's
 * memory); a read of a range of maps (an adaptive skew split) asks for its blocks one by one. Only
 * the attempts the driver kept are used; a block SCache cannot give becomes a fetch failure naming
 * its map, so that Spark runs the map again.
 */
final class ReduceBlockSource {
  /** A block's bytes, with what the reader needs to decode it. */
  record ReadBlock(ExpectedBlock block, ByteBuffer data) {}

  private final ScacheClient client;
  private final String appId;
  private final int shuffleId;
  private final boolean everyMap;
  private final ShuffleReadMetricsReporter metrics;

  ReduceBlockSource(ScacheClient client, String appId, int shuffleId, boolean everyMap,
      ShuffleReadMetricsReporter metrics) {
    this.client = client;
    this.appId = appId;
    this.shuffleId = shuffleId;
    this.everyMap = everyMap;
    this.metrics = metrics;
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
        for (ReduceInput.Block b : client.getReduceInput(shuffleId, reduceId).blocks()) {
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
