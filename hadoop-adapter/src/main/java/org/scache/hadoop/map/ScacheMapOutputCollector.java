package org.scache.hadoop.map;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.DefaultCodec;
import org.apache.hadoop.io.serializer.SerializationFactory;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.IFile;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.MapOutputCollector;
import org.apache.hadoop.mapred.MapOutputFile;
import org.apache.hadoop.mapred.MapTask;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapred.Task;
import org.apache.hadoop.mapred.TaskAttemptID;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.util.IndexedSorter;
import org.apache.hadoop.util.QuickSort;
import org.apache.hadoop.util.ReflectionUtils;
import org.scache.client.ScacheClient;
import org.scache.common.BlockId;
import org.scache.common.DaemonThreads;
import org.scache.common.ScacheException;
import org.scache.common.shuffle.PartitionerKind;
import org.scache.hadoop.MapOutputBlock;
import org.scache.hadoop.PartitionerKinds;
import org.scache.hadoop.ScacheCounter;
import org.scache.hadoop.ShuffleChoice;
import org.scache.hadoop.TaskScacheClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Map-side collector ({@code mapreduce.job.map.output.collector.class}) that shuffles through
 * SCache: it partitions, sorts and combines the map's output in memory with Hadoop's own pieces
 * (the job's serializers, sorter, key comparator, combiner and IFile writer, compression included)
 * and puts each partition's sorted run on the node's SCache worker instead of writing spill files.
 * Output beyond the sort buffer ({@code mapreduce.task.io.sort.mb}) goes as extra runs; see
 * {@link MapOutputBlock} for the block layout. Its SCache client starts in the background while the
 * map reads its input; a map that SCache refuses fails at its first put. When the job does not
 * enable SCache it is Hadoop's own MapOutputBuffer, and so it is for a map attempt run again
 * ({@link ShuffleChoice#writesAsHadoop}).
 */
public class ScacheMapOutputCollector<K, V> implements MapOutputCollector<K, V> {
  private static final Logger LOG = LoggerFactory.getLogger(ScacheMapOutputCollector.class);
  private MapOutputCollector<K, V> hadoopBuffer;

  private JobConf job;
  private Task.TaskReporter reporter;
  private MapOutputFile mapOutputFile;
  private TaskAttemptID attemptId;
  private int partitions;
  private Class<K> keyClass;
  private Class<V> valueClass;
  private CompressionCodec codec;
  private IndexedSorter sorter;
  private MapOutputSortBuffer<K, V> buffer;
  private long spillThreshold;
  private Task.CombinerRunner<K, V> combiner;
  private Task.CombineOutputCollector<K, V> combineCollector;
  private Counters.Counter outputRecords;
  private Counters.Counter outputBytes;
  private Counters.Counter materializedBytes;

  private CompletableFuture<ScacheClient> connecting;
  private ScacheClient client;
  private String appId;
  private int numMaps;
  private PartitionerKind partitionerKind;
  private int spills;
  private final BitSet registeredShuffles = new BitSet();
  private boolean writesAsHadoop;

  @Override
  @SuppressWarnings("unchecked")
  public void init(Context context) throws IOException, ClassNotFoundException {
    job = context.getJobConf();
    if (!ShuffleChoice.forTask(job, System.getenv())) {
      hadoopBuffer = new MapTask.MapOutputBuffer<>();
      hadoopBuffer.init(context);
      return;
    }
    MapTask task = context.getMapTask();
    if (ShuffleChoice.writesAsHadoop(task.getTaskID())) {
      startAsHadoop(context, task);
      return;
    }
    reporter = context.getReporter();
    reporter.getCounter(ScacheCounter.MAP_JVM_STARTUP_MILLIS)
        .increment(ManagementFactory.getRuntimeMXBean().getUptime());
    mapOutputFile = task.getMapOutputFile();
    attemptId = task.getTaskID();
    partitions = job.getNumReduceTasks();
    keyClass = (Class<K>) job.getMapOutputKeyClass();
    valueClass = (Class<V>) job.getMapOutputValueClass();
    if (job.getCompressMapOutput()) {
      codec = ReflectionUtils.newInstance(job.getMapOutputCompressorClass(DefaultCodec.class), job);
    }
    sorter = ReflectionUtils.newInstance(job.getClass(MRJobConfig.MAP_SORT_CLASS, QuickSort.class,
        IndexedSorter.class), job);
    int sortMb = job.getInt(MRJobConfig.IO_SORT_MB, MRJobConfig.DEFAULT_IO_SORT_MB);
    float spillPercent = job.getFloat(MRJobConfig.MAP_SORT_SPILL_PERCENT, 0.8f);
    if (sortMb <= 0 || sortMb > 2047) {
      throw new IOException("invalid " + MRJobConfig.IO_SORT_MB + ": " + sortMb + " (must be in 1..2047)");
    }
    if (spillPercent <= 0 || spillPercent > 1) {
      throw new IOException("invalid " + MRJobConfig.MAP_SORT_SPILL_PERCENT + ": " + spillPercent);
    }
    spillThreshold = (long) ((sortMb << 20) * (double) spillPercent);
    SerializationFactory serialization = new SerializationFactory(job);
    // like Hadoop's MapOutputBuffer, the sort buffer is taken whole at the start: grown by doubling, a map's
    // output would allocate (and collect) nearly twice its size in large arrays
    buffer = new MapOutputSortBuffer<>((int) spillThreshold, serialization.getSerializer(keyClass),
        serialization.getSerializer(valueClass), (org.apache.hadoop.io.RawComparator<K>) job.getOutputKeyComparator());
    outputRecords = reporter.getCounter(TaskCounter.MAP_OUTPUT_RECORDS);
    outputBytes = reporter.getCounter(TaskCounter.MAP_OUTPUT_BYTES);
    materializedBytes = reporter.getCounter(TaskCounter.MAP_OUTPUT_MATERIALIZED_BYTES);
    combiner = Task.CombinerRunner.create(job, attemptId, reporter.getCounter(TaskCounter.COMBINE_INPUT_RECORDS),
        reporter, null);
    if (combiner != null) {
      combineCollector = new Task.CombineOutputCollector<>(reporter.getCounter(TaskCounter.COMBINE_OUTPUT_RECORDS),
          reporter, job);
    }
    numMaps = job.getNumMapTasks();
    partitionerKind = PartitionerKinds.of(job);
    // the client's start (its network stack, its connections, the application's and the shuffle's
    // registration) takes a task JVM a good part of a second: it runs while the map reads its input
    connecting = CompletableFuture.supplyAsync(() -> connect(task),
        r -> DaemonThreads.named("scache-connect-" + attemptId).newThread(r).start());
  }

  /**
   * A map attempt run again writes as Hadoop's shuffle ({@link ShuffleChoice#writesAsHadoop}); its SCache client
   * only declares the map finished with no blocks, once its output is written, so that the master places and the
   * workers serve the shuffle's reduces without waiting for it.
   */
  @SuppressWarnings("unchecked")
  private void startAsHadoop(Context context, MapTask task) throws IOException, ClassNotFoundException {
    attemptId = task.getTaskID();
    LOG.info("{} runs again: it writes as Hadoop's shuffle, and the reduces read it from this node's shuffle "
        + "service", attemptId);
    hadoopBuffer = new MapTask.MapOutputBuffer<>();
    hadoopBuffer.init(context);
    writesAsHadoop = true;
    context.getReporter().getCounter(ScacheCounter.MAPS_WRITTEN_AS_HADOOP).increment(1);
    partitions = job.getNumReduceTasks();
    numMaps = job.getNumMapTasks();
    partitionerKind = PartitionerKinds.of(job);
    connecting = CompletableFuture.supplyAsync(() -> connect(task),
        r -> DaemonThreads.named("scache-connect-" + attemptId).newThread(r).start());
  }

  /** Declares this attempt, which wrote as Hadoop's shuffle, its map's final one: SCache holds no block of it. */
  private void declareFinishedWithoutBlocks() {
    try {
      client().mapFinished(TaskScacheClient.SHUFFLE_ID, attemptId.getTaskID().getId(), attemptId.getId());
    } catch (IOException | ScacheException e) {
      LOG.warn("SCache was not told that {} wrote as Hadoop's shuffle ({}); the reduces read it from this node all "
          + "the same, after waiting for it at most scache.worker.reduce.input.wait.timeout", attemptId,
          e.getMessage());
    }
  }

  private ScacheClient connect(MapTask task) {
    ScacheClient c;
    try {
      c = TaskScacheClient.open(job, task.getJobID(), task.getShuffleSecret());
    } catch (IOException e) {
      throw new CompletionException(e);
    }
    try {
      c.registerApplication();
      c.registerShuffle(TaskScacheClient.SHUFFLE_ID, numMaps, partitions, partitionerKind);
      return c;
    } catch (RuntimeException e) {
      c.close();
      throw e;
    }
  }

  /** The connected client, once its start has ended; the map fails when SCache refused it. */
  private ScacheClient client() throws IOException {
    if (client == null) {
      try {
        client = connecting.join();
      } catch (CompletionException e) {
        Throwable cause = e.getCause() == null ? e : e.getCause();
        if (cause instanceof IOException) {
          throw (IOException) cause;
        }
        throw new IOException("SCache refused map " + attemptId + ": " + cause.getMessage(), cause);
      }
      appId = client.appId();
      // connect() registered it
      registeredShuffles.set(TaskScacheClient.SHUFFLE_ID);
    }
    return client;
  }

  @Override
  public void collect(K key, V value, int partition) throws IOException, InterruptedException {
    if (hadoopBuffer != null) {
      hadoopBuffer.collect(key, value, partition);
      return;
    }
    reporter.progress();
    if (key.getClass() != keyClass) {
      throw new IOException("Type mismatch in key from map: expected " + keyClass.getName() + ", received "
          + key.getClass().getName());
    }
    if (value.getClass() != valueClass) {
      throw new IOException("Type mismatch in value from map: expected " + valueClass.getName() + ", received "
          + value.getClass().getName());
    }
    if (partition < 0 || partition >= partitions) {
      throw new IOException("Illegal partition for " + key + " (" + partition + ")");
    }
    int bytes = buffer.add(key, value, partition);
    outputRecords.increment(1);
    outputBytes.increment(bytes);
    if (buffer.bytesUsed() >= spillThreshold) {
      putRun(MapOutputBlock.spillShuffle(spills), 1);
      spills++;
      reporter.getCounter(ScacheCounter.SPILL_RUNS).increment(1);
    }
  }

  @Override
  public void flush() throws IOException, InterruptedException, ClassNotFoundException {
    if (hadoopBuffer != null) {
      hadoopBuffer.flush();
      if (writesAsHadoop) {
        declareFinishedWithoutBlocks();
      }
      return;
    }
    putRun(TaskScacheClient.SHUFFLE_ID, spills + 1);
    int map = attemptId.getTaskID().getId();
    ScacheClient scache = client();
    try {
      for (int s = 0; s < spills; s++) {
        scache.mapFinished(MapOutputBlock.spillShuffle(s), map, attemptId.getId());
      }
      // last: once shuffle 0 names this attempt final, reduces may read every run of it
      scache.mapFinished(TaskScacheClient.SHUFFLE_ID, map, attemptId.getId());
    } catch (ScacheException e) {
      throw new IOException("SCache did not accept the end of map " + attemptId + ": " + e.getMessage(), e);
    }
    markNoLocalOutput();
  }

  /**
   * Leaves an empty map output file where Hadoop's task reads its output's size as it ends: without
   * one, every map task logs a DiskErrorException with its stack trace, and builds both, for an output
   * that is in SCache. Its size on local disk, 0 bytes, is then what the task reports. A map whose
   * local disks refuse even an empty file still succeeds (its output is in SCache) and logs that warning.
   */
  private void markNoLocalOutput() {
    try {
      FileSystem.getLocal(job).getRaw().create(mapOutputFile.getOutputFileForWrite(0), true).close();
    } catch (IOException e) {
      LOG.debug("no empty map output file for {}: {}", attemptId, e.toString());
    }
  }

  @Override
  public void close() throws IOException, InterruptedException {
    if (hadoopBuffer != null) {
      hadoopBuffer.close();
    }
    if (buffer != null) {
      buffer.clear();
    }
    if (client != null) {
      client.close();
    } else if (connecting != null) {
      // a map that ends before its first put: the client is closed once it has started
      connecting.whenComplete((c, e) -> {
        if (c != null) {
          c.close();
        }
      });
    }
  }

  /** Sorts the buffered records and puts one run per partition, as blocks of {@code shuffleId}. */
  private void putRun(int shuffleId, int runs) throws IOException {
    long start = System.nanoTime();
    ScacheClient scache = client();
    registerShuffle(shuffleId);
    long sortStart = System.nanoTime();
    int records = buffer.records();
    buffer.sort(sorter, reporter);
    long sortEnd = System.nanoTime();
    long writing = 0;
    int[] starts = buffer.partitionStarts(partitions);
    List<CompletableFuture<Void>> puts = new ArrayList<>(partitions);
    int map = attemptId.getTaskID().getId();
    try {
      for (int p = 0; p < partitions; p++) {
        long writeStart = System.nanoTime();
        ByteBuffer block = writeRun(buffer.iterator(starts[p], starts[p + 1]),
            runCapacity(buffer.serializedBytes(starts[p], starts[p + 1]), starts[p + 1] - starts[p]), runs);
        writing += System.nanoTime() - writeStart;
        puts.add(scache.putBlockAsync(new BlockId(appId, shuffleId, map, attemptId.getId(), p), block));
        reporter.progress();
      }
      CompletableFuture.allOf(puts.toArray(CompletableFuture[]::new)).join();
      long end = System.nanoTime();
      // like MapOutputBuffer's spill lines: where a map's output phase spent its time
      LOG.info("put {} records of shuffle {} in {} blocks: waited {} ms for the client, sorted in {} ms, wrote the "
          + "runs in {} ms, put them in {} ms", records, shuffleId, partitions, millis(sortStart - start),
          millis(sortEnd - sortStart), millis(writing), millis(end - sortEnd - writing));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while writing map output of " + attemptId, e);
    } catch (ClassNotFoundException e) {
      throw new IOException(e);
    } catch (RuntimeException e) {
      ScacheException se = ScacheException.from(e);
      throw new IOException("SCache could not store the output of map " + attemptId + ": " + se.getMessage(), se);
    } finally {
      buffer.clear();
    }
  }

  /**
   * Bytes that hold an uncompressed IFile run of {@code records} records of {@code serialized} bytes
   * behind the block header: per record a key and a value length of at most 5 bytes each, then the
   * end-of-file marker and the checksum. A run that needs more (a combiner's output, a codec that
   * grows its input) makes its buffer grow.
   */
  static int runCapacity(long serialized, int records) {
    long bytes = MapOutputBlock.HEADER_BYTES + serialized + 10L * records + 16;
    return (int) Math.min(bytes, Integer.MAX_VALUE - 16);
  }

  private static long millis(long nanos) {
    return nanos / 1_000_000;
  }

  /** One partition's records as an IFile run behind a {@link MapOutputBlock} header. */
  private ByteBuffer writeRun(RawKeyValueIterator records, int capacity, int runs)
      throws IOException, InterruptedException, ClassNotFoundException {
    ExposedBytes bytes = new ExposedBytes(capacity);
    bytes.write(new byte[MapOutputBlock.HEADER_BYTES]);
    IFile.Writer<K, V> writer;
    try (FSDataOutputStream out = new FSDataOutputStream(bytes, null)) {
      writer = new IFile.Writer<>(job, out, keyClass, valueClass, codec, null);
      if (combiner == null) {
        while (records.next()) {
          writer.append(records.getKey(), records.getValue());
        }
      } else {
        combineCollector.setWriter(writer);
        combiner.combine(records, combineCollector);
      }
      writer.close();
    }
    MapOutputBlock header = new MapOutputBlock(runs, writer.getRawLength(), writer.getCompressedLength());
    materializedBytes.increment(header.partLength());
    reporter.getCounter(ScacheCounter.BLOCKS_PUT).increment(1);
    reporter.getCounter(ScacheCounter.BYTES_PUT).increment(header.partLength());
    ByteBuffer block = ByteBuffer.wrap(bytes.array(), 0, bytes.size());
    header.writeHeader(block.duplicate());
    return block;
  }

  private void registerShuffle(int shuffleId) throws IOException {
    if (!registeredShuffles.get(shuffleId)) {
      client().registerShuffle(shuffleId, numMaps, partitions, partitionerKind);
      registeredShuffles.set(shuffleId);
    }
  }

  /** A byte array stream whose buffer can be handed on without a copy. */
  private static final class ExposedBytes extends ByteArrayOutputStream {
    ExposedBytes(int capacity) {
      super(capacity);
    }

    byte[] array() {
      return buf;
    }
  }
}
