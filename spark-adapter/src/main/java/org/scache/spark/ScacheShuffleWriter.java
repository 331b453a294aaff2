package org.scache.spark;

import java.io.IOException;
import org.apache.spark.ShuffleDependency;
import org.apache.spark.TaskContext;
import org.apache.spark.scheduler.MapStatus;
import org.apache.spark.scheduler.MapStatus$;
import org.apache.spark.shuffle.ShuffleWriteMetricsReporter;
import org.apache.spark.shuffle.ShuffleWriter;
import org.apache.spark.storage.BlockManagerId;
import org.apache.spark.util.collection.ExternalSorter;
import org.scache.client.ScacheClient;
import scala.Option;
import scala.Product2;
import scala.collection.Iterator;

/**
 * A map task's writer: Spark's own sorter partitions the records (combining them on the map side
 * when the shuffle asks for it) and serializes and compresses each partition as Spark's sort
 * shuffle does; each partition becomes one SCache block on this node's worker, put while the next
 * is written. The map is then declared finished with this task attempt as its attempt, and the
 * map status carries the true block sizes.
 */
final class ScacheShuffleWriter<K, V, C> extends ShuffleWriter<K, V> {
  private final ScacheShuffleHandle<K, V, C> handle;
  private final ScacheClient client;
  private final long mapTaskId;
  private final TaskContext context;
  private final ShuffleWriteMetricsReporter metrics;
  private final BlockManagerId location;
  private final long maxPendingBytes;
  private ExternalSorter<K, V, ?> sorter;
  private MapStatus status;
  private long[] lengths;
  private boolean stopping;

  ScacheShuffleWriter(ScacheShuffleHandle<K, V, C> handle, ScacheClient client, long mapTaskId, TaskContext context,
      ShuffleWriteMetricsReporter metrics, BlockManagerId location, long maxPendingBytes) {
    this.handle = handle;
    this.client = client;
    this.mapTaskId = mapTaskId;
    this.context = context;
    this.metrics = metrics;
    this.location = location;
    this.maxPendingBytes = maxPendingBytes;
  }

  @Override
  public void write(Iterator<Product2<K, V>> records) throws IOException {
    ShuffleDependency<K, V, C> dep = handle.dependency();
    if (dep.mapSideCombine()) {
      sorter = new ExternalSorter<K, V, C>(context, dep.aggregator(), Option.apply(dep.partitioner()),
          dep.keyOrdering(), dep.serializer());
    } else {
      // as Spark's sort shuffle: neither combined nor sorted here; a sortByKey sorts on the reduce side
      sorter = new ExternalSorter<K, V, V>(context, Option.empty(), Option.apply(dep.partitioner()), Option.empty(),
          dep.serializer());
    }
    sorter.insertAll(records);
    int mapIndex = context.partitionId();
    int attempt = BlockAttempts.of(mapTaskId);
    PartitionBlockWriter out = new PartitionBlockWriter(client, handle.appId(), handle.shuffleId(), mapIndex, attempt,
        handle.numReduces(), maxPendingBytes);
    sorter.writePartitionedMapOutput(handle.shuffleId(), mapTaskId, out, metrics);
    lengths = out.commitAllPartitions(sorter.getChecksums()).getPartitionLengths();
    long start = System.nanoTime();
    client.mapFinished(handle.shuffleId(), mapIndex, attempt);
    metrics.incWriteTime(out.putNanos() + System.nanoTime() - start);
    status = MapStatus$.MODULE$.apply(location, lengths, mapTaskId);
  }

  @Override
  public Option<MapStatus> stop(boolean success) {
    try {
      if (stopping) {
        return Option.empty();
      }
      stopping = true;
      return success ? Option.apply(status) : Option.empty();
    } finally {
      if (sorter != null) {
        sorter.stop();
        sorter = null;
      }
    }
  }

  @Override
  public long[] getPartitionLengths() {
    return lengths;
  }
}
