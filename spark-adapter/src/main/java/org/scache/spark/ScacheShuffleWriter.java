package org.scache.spark;

import java.io.IOException;
import org.apache.spark.Partitioner;
import org.apache.spark.ShuffleDependency;
import org.apache.spark.SparkEnv;
import org.apache.spark.TaskContext;
import org.apache.spark.scheduler.MapStatus;
import org.apache.spark.serializer.SerializationStream;
import org.apache.spark.serializer.SerializerInstance;
import org.apache.spark.serializer.SerializerManager;
import org.apache.spark.shuffle.ShuffleWriteMetricsReporter;
import org.apache.spark.shuffle.ShuffleWriter;
import org.apache.spark.shuffle.api.ShufflePartitionWriter;
import org.apache.spark.storage.BlockManagerId;
import org.apache.spark.storage.ShuffleBlockId;
import org.apache.spark.util.collection.ExternalSorter;
import org.scache.client.BlockBuffers;
import org.scache.client.ScacheClient;
import org.scache.common.ScacheException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Option;
import scala.Product2;
import scala.collection.Iterator;
import scala.reflect.ClassTag;
import scala.reflect.ClassTag$;

/**
 * A map task's writer, as Spark's sort shuffle writes: with few partitions
 * ({@code spark.shuffle.sort.bypassMergeThreshold}) and no map-side combine, each record is
 * serialized and compressed straight into its partition's stream; otherwise Spark's own sorter
 * partitions the records (combining them on the map side when the shuffle asks for it) and
 * serializes and compresses each partition; each partition becomes one SCache block on this node's worker, put while
 * the next is written. Once every block is stored, the map is declared finished with this task attempt as its
 * attempt; the task waits for neither (its end costs it no round trip), and the map status carries the true block
 * sizes.
 */
final class ScacheShuffleWriter<K, V, C> extends ShuffleWriter<K, V> {
  private static final Logger LOG = LoggerFactory.getLogger(ScacheShuffleWriter.class);
  private final ScacheShuffleHandle<K, V, C> handle;
  private final ScacheClient client;
  private final long mapTaskId;
  private final TaskContext context;
  private final ShuffleWriteMetricsReporter metrics;
  private final BlockManagerId location;
  private final long maxPendingBytes;
  private final BlockBuffers chunkPool;
  private ExternalSorter<K, V, ?> sorter;
  private PartitionMemory memory;
  private MapStatus status;
  private long[] lengths;
  private boolean stopping;

  ScacheShuffleWriter(ScacheShuffleHandle<K, V, C> handle, ScacheClient client, long mapTaskId, TaskContext context,
      ShuffleWriteMetricsReporter metrics, BlockManagerId location, long maxPendingBytes, BlockBuffers chunkPool) {
    this.handle = handle;
    this.client = client;
    this.mapTaskId = mapTaskId;
    this.context = context;
    this.metrics = metrics;
    this.location = location;
    this.maxPendingBytes = maxPendingBytes;
    this.chunkPool = chunkPool;
  }

  @Override
  public void write(Iterator<Product2<K, V>> records) throws IOException {
    ShuffleDependency<K, V, C> dep = handle.dependency();
    int mapIndex = context.partitionId();
    int attempt = BlockAttempts.of(mapTaskId);
    PartitionBlockWriter out;
    if (!dep.mapSideCombine() && handle.numReduces() <= SparkEnv.get().conf()
        .getInt("spark.shuffle.sort.bypassMergeThreshold", 200)) {
      // as Spark's sort shuffle for few partitions and no map-side combine: each record straight to its
      // partition's stream, neither buffered as objects nor sorted
      memory = PartitionMemory.of(context.taskMemoryManager());
      out = new PartitionBlockWriter(client, handle.appId(), handle.shuffleId(), mapIndex, attempt,
          handle.numReduces(), maxPendingBytes, memory, chunkPool,
          () -> SparkEnv.get().blockManager().diskBlockManager().createTempLocalBlock()._2());
      writeStraight(dep, records, out);
    } else {
      if (dep.mapSideCombine()) {
        sorter = SparkLine.<K, V, C>sorter(context, dep.aggregator(), Option.apply(dep.partitioner()),
            dep.keyOrdering(), dep.serializer());
      } else {
        // as Spark's sort shuffle: neither combined nor sorted here; a sortByKey sorts on the reduce side
        sorter = SparkLine.<K, V, V>sorter(context, Option.empty(), Option.apply(dep.partitioner()), Option.empty(),
            dep.serializer());
      }
      sorter.insertAll(records);
      out = new PartitionBlockWriter(client, handle.appId(), handle.shuffleId(), mapIndex, attempt,
          handle.numReduces(), maxPendingBytes, chunkPool);
      sorter.writePartitionedMapOutput(handle.shuffleId(), mapTaskId, out, metrics);
    }
    lengths = out.commitAllPartitions(new long[0]).getPartitionLengths();
    // the task waits neither for the worker's answers to its last puts nor for the master's to its end: Spark starts
    // the reduces once the driver has every map's status, and the driver first waits for their placement, which the
    // master makes once it has every map's end, sent once the worker has answered every put. A block that could not
    // be stored after all (every worker refused it) is missing to its reduces: the map is declared finished all the
    // same, so that they do not wait for it but fail to fetch it at once, and Spark runs the map again, this time
    // on its sort shuffle (SortShuffleRetryWriter).
    int shuffleId = handle.shuffleId();
    out.whenStored().handle((v, e) -> e).thenCompose(notStored -> {
      if (notStored != null) {
        LOG.warn("SCache did not take map {} (attempt {}) of shuffle {}: {}; its reduces will fail to read it, and "
            + "Spark runs it again on its sort shuffle", mapIndex, attempt, shuffleId,
            ScacheException.from(notStored).getMessage());
      }
      return client.mapFinishedAsync(shuffleId, mapIndex, attempt);
    }).whenComplete((v, e) -> {
      if (e != null) {
        LOG.warn("SCache was not told that map {} (attempt {}) of shuffle {} finished: {}; its reduces read what of "
            + "it is stored block by block", mapIndex, attempt, shuffleId, ScacheException.from(e).getMessage());
      }
    });
    metrics.incWriteTime(out.putNanos());
    status = SparkLine.mapStatus(location, lengths, mapTaskId);
  }

  /** Serializes and compresses each record into its partition's stream; closing a stream puts the partition. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private void writeStraight(ShuffleDependency<K, V, C> dep, Iterator<Product2<K, V>> records,
      PartitionBlockWriter out) throws IOException {
    SerializerInstance serializer = dep.serializer().newInstance();
    SerializerManager streams = SparkEnv.get().serializerManager();
    Partitioner partitioner = dep.partitioner();
    SerializationStream[] open = new SerializationStream[handle.numReduces()];
    ShufflePartitionWriter[] partitions = new ShufflePartitionWriter[handle.numReduces()];
    ClassTag any = ClassTag$.MODULE$.Any();
    boolean written = false;
    try {
      while (records.hasNext()) {
        Product2<K, V> r = records.next();
        int p = partitioner.getPartition(r._1());
        if (open[p] == null) {
          partitions[p] = out.getPartitionWriter(p);
          open[p] = serializer.serializeStream(streams.wrapStream(new ShuffleBlockId(handle.shuffleId(), mapTaskId, p),
              partitions[p].openStream()));
        }
        open[p].writeKey(r._1(), any);
        open[p].writeValue(r._2(), any);
        metrics.incRecordsWritten(1);
      }
      metrics.incBytesWritten(close(open, partitions));
      written = true;
    } finally {
      if (!written) {
        out.abort(null);
      }
    }
  }

  /** Closes every open partition stream (each puts its partition's block); returns their bytes. */
  private static long close(SerializationStream[] open, ShufflePartitionWriter[] partitions) {
    long bytes = 0;
    for (int p = 0; p < open.length; p++) {
      if (open[p] != null) {
        open[p].close();
        open[p] = null;
        bytes += partitions[p].getNumBytesWritten();
        partitions[p] = null;
      }
    }
    return bytes;
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
      if (memory != null) {
        memory.close();
        memory = null;
      }
    }
  }

  @Override
  public long[] getPartitionLengths() {
    return lengths;
  }
}
