package org.scache.spark;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.apache.spark.network.buffer.ManagedBuffer;
import org.apache.spark.network.shuffle.BlockFetchingListener;
import org.apache.spark.network.shuffle.BlockStoreClient;
import org.apache.spark.shuffle.FetchFailedException;
import org.apache.spark.shuffle.ShuffleReadMetricsReporter;
import org.apache.spark.storage.BlockManagerId;

/**
 * Reads the blocks of an SCache shuffle's maps that wrote as Spark's sort shuffle ({@link SortShuffleRetryWriter}):
 * from the executor (or external shuffle service) their map status names, as Spark's own reader fetches, one
 * request per location for the blocks of one reduce partition. A block that cannot be fetched is a fetch failure
 * naming its map and location, so that Spark runs the map again, as for its own shuffle.
 */
final class ExecutorHeldBlocks {
  private final BlockStoreClient blocks;
  private final int shuffleId;
  private final ShuffleReadMetricsReporter metrics;

  ExecutorHeldBlocks(BlockStoreClient blocks, int shuffleId, ShuffleReadMetricsReporter metrics) {
    this.blocks = blocks;
    this.shuffleId = shuffleId;
    this.metrics = metrics;
  }

  /** Whether {@code b} is held by an executor, not by an SCache worker. */
  static boolean heldByExecutor(ExpectedBlock b) {
    return !b.location().executorId().startsWith(ScacheShuffleManager.SCACHE_EXECUTOR_PREFIX);
  }

  /** The bytes of {@code expected}, in their order; the fetches of every location are in flight at once. */
  List<ReduceBlockSource.ReadBlock> read(List<ExpectedBlock> expected) throws FetchFailedException {
    Map<BlockManagerId, List<ExpectedBlock>> byLocation = new LinkedHashMap<>();
    expected.forEach(b -> byLocation.computeIfAbsent(b.location(), l -> new ArrayList<>()).add(b));
    Map<String, CompletableFuture<ByteBuffer>> fetched = new HashMap<>();
    long start = System.nanoTime();
    byLocation.forEach((location, of) -> {
      String[] ids = of.stream().map(b -> b.sparkId(shuffleId).name()).toArray(String[]::new);
      for (String id : ids) {
        fetched.put(id, new CompletableFuture<>());
      }
      blocks.fetchBlocks(location.host(), location.port(), location.executorId(), ids, new BlockFetchingListener() {
        @Override
        public void onBlockFetchSuccess(String blockId, ManagedBuffer data) {
          try {
            ByteBuffer view = data.nioByteBuffer();
            ByteBuffer copy = ByteBuffer.allocate(view.remaining());
            copy.put(view).flip();
            fetched.get(blockId).complete(copy);
          } catch (Exception e) {
            fetched.get(blockId).completeExceptionally(e);
          }
        }

        @Override
        public void onBlockFetchFailure(String blockId, Throwable e) {
          fetched.get(blockId).completeExceptionally(e);
        }
      }, null);
    });
    List<ReduceBlockSource.ReadBlock> out = new ArrayList<>(expected.size());
    for (ExpectedBlock b : expected) {
      ByteBuffer data;
      try {
        data = fetched.get(b.sparkId(shuffleId).name()).join();
      } catch (CompletionException e) {
        Throwable cause = e.getCause() == null ? e : e.getCause();
        throw new FetchFailedException(b.location(), shuffleId, b.mapTaskId(), b.mapIndex(), b.reduceId(),
            "cannot fetch " + b.sparkId(shuffleId).name() + ", written as Spark's sort shuffle, from " + b.location()
                + ": " + cause.getMessage(), cause);
      }
      metrics.incRemoteBlocksFetched(1);
      metrics.incRemoteBytesRead(data.remaining());
      out.add(new ReduceBlockSource.ReadBlock(b, data));
    }
    metrics.incFetchWaitTime((System.nanoTime() - start) / 1_000_000);
    return out;
  }
}
