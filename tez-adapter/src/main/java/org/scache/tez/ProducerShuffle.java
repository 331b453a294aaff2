package org.scache.tez;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.tez.runtime.api.OutputContext;
import org.apache.tez.runtime.library.common.sort.impl.TezIndexRecord;
import org.apache.tez.runtime.library.common.sort.impl.TezSpillRecord;
import org.scache.client.ScacheClient;
import org.scache.common.BlockId;
import org.scache.common.ScacheException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The SCache side of one producer attempt of an ordered or unordered edge: registration, one block per
 * partition of the attempt's final output file, the final-attempt declaration, and the report its
 * consumers and their vertex manager read.
 */
final class ProducerShuffle implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ProducerShuffle.class);
  /** Block bytes handed to the worker and not yet acknowledged, at most. */
  private static final long MAX_BYTES_IN_FLIGHT = 64L << 20;

  private final OutputContext context;
  private final ScacheClient client;
  private final int shuffleId;
  private final int partitions;
  private final String worker;

  private ProducerShuffle(OutputContext context, ScacheClient client, int shuffleId, int partitions, String worker) {
    this.context = context;
    this.client = client;
    this.shuffleId = shuffleId;
    this.partitions = partitions;
    this.worker = worker;
  }

  static ProducerShuffle open(OutputContext context, Configuration conf, int partitions) throws IOException {
    EdgeShuffle edge = EdgeShuffle.of(conf, context.getDagIdentifier());
    ScacheClient client = TaskScache.open(context, conf);
    try {
      client.registerApplication();
      client.registerShuffle(edge.shuffleId(), context.getVertexParallelism(), partitions,
          edge.partitionerKind(conf), edge.hints());
    } catch (ScacheException e) {
      client.close();
      throw new IOException("SCache refused producer " + context.getUniqueIdentifier() + ": " + e.getMessage(), e);
    }
    return new ProducerShuffle(context, client, edge.shuffleId(), partitions, TaskScache.localWorker(conf));
  }

  /**
   * Puts every partition of a final output file (Tez's file and index layout) as one block; the file stays, for
   * Tez's shuffle to serve should SCache not take it all ({@link #deleteOutput} once it has).
   */
  void putPartitions(Configuration conf, Path file, Path index) throws IOException {
    FileSystem fs = FileSystem.getLocal(conf).getRaw();
    TezSpillRecord spillRecord = new TezSpillRecord(index, fs);
    List<CompletableFuture<Void>> puts = new ArrayList<>();
    long inFlight = 0;
    long bytes = 0;
    try (FSDataInputStream in = fs.open(file)) {
      for (int p = 0; p < partitions; p++) {
        TezIndexRecord r = spillRecord.getIndex(p);
        if (r.getPartLength() > Integer.MAX_VALUE - TezBlock.HEADER_BYTES) {
          throw new IOException("partition " + p + " of " + context.getUniqueIdentifier() + " has "
              + r.getPartLength() + " bytes, more than one SCache block can hold");
        }
        byte[] block = new byte[TezBlock.HEADER_BYTES + (int) r.getPartLength()];
        new TezBlock(r.getRawLength(), r.getPartLength()).writeHeader(ByteBuffer.wrap(block));
        in.readFully(r.getStartOffset(), block, TezBlock.HEADER_BYTES, (int) r.getPartLength());
        if (inFlight + block.length > MAX_BYTES_IN_FLIGHT && !puts.isEmpty()) {
          join(puts);
          puts.clear();
          inFlight = 0;
        }
        puts.add(put(p, ByteBuffer.wrap(block)));
        inFlight += block.length;
        bytes += r.getPartLength();
        context.notifyProgress();
      }
      join(puts);
    }
    counted(partitions, bytes);
  }

  /** Deletes the final output file and its index: SCache holds every partition of them. */
  void deleteOutput(Configuration conf, Path file, Path index) throws IOException {
    FileSystem fs = FileSystem.getLocal(conf).getRaw();
    if (!fs.delete(file, false) || !fs.delete(index, false)) {
      LOG.debug("the output {} of {} was already gone", file, context.getUniqueIdentifier());
    }
  }

  /** Puts an empty block for every partition: the attempt wrote no record. */
  void putEmptyPartitions() throws IOException {
    List<CompletableFuture<Void>> puts = new ArrayList<>();
    for (int p = 0; p < partitions; p++) {
      byte[] block = new byte[TezBlock.HEADER_BYTES];
      new TezBlock(0, 0).writeHeader(ByteBuffer.wrap(block));
      puts.add(put(p, ByteBuffer.wrap(block)));
    }
    join(puts);
    counted(partitions, 0);
  }

  private void counted(int blocks, long bytes) {
    context.getCounters().findCounter(ScacheTezCounter.BLOCKS_PUT).increment(blocks);
    context.getCounters().findCounter(ScacheTezCounter.BYTES_PUT).increment(bytes);
    context.notifyProgress();
  }

  private CompletableFuture<Void> put(int partition, ByteBuffer block) {
    BlockId id = new BlockId(client.appId(), shuffleId, context.getTaskIndex(), context.getTaskAttemptNumber(),
        partition);
    return client.putBlockAsync(id, block);
  }

  private void join(List<CompletableFuture<Void>> puts) throws IOException {
    try {
      CompletableFuture.allOf(puts.toArray(CompletableFuture[]::new)).join();
    } catch (RuntimeException e) {
      ScacheException se = ScacheException.from(e);
      throw new IOException("SCache could not store the output of " + context.getUniqueIdentifier() + ": "
          + se.getMessage(), se);
    }
  }

  void finish() throws IOException {
    try {
      client.mapFinished(shuffleId, context.getTaskIndex(), context.getTaskAttemptNumber());
    } catch (ScacheException e) {
      throw new IOException("SCache did not accept the end of " + context.getUniqueIdentifier() + ": "
          + e.getMessage(), e);
    }
    LOG.info("{}: put {} partitions of map {} attempt {} in SCache shuffle {} on worker {}",
        context.getInputOutputVertexNames(), partitions, context.getTaskIndex(), context.getTaskAttemptNumber(),
        shuffleId, worker);
  }

  /**
   * The report of this attempt once SCache did not take its output ({@code why}): it is served by Tez's shuffle
   * service from {@code where}, and declared finished to SCache all the same (when SCache answers), so that the
   * master places the consumers without waiting for it; the consumers read it from the node.
   */
  ProducerReport writtenAsTez(TezShuffleOutput where, IOException why) {
    LOG.warn("{}: SCache did not take the output of {} ({}); its consumers read it from Tez's shuffle service on "
        + "{}", context.getInputOutputVertexNames(), context.getUniqueIdentifier(), why.getMessage(),
        where.empty() ? "no node (every partition is empty)" : where.host() + ":" + where.port());
    context.getCounters().findCounter(ScacheTezCounter.OUTPUTS_WRITTEN_AS_TEZ).increment(1);
    try {
      client.mapFinished(shuffleId, context.getTaskIndex(), context.getTaskAttemptNumber());
    } catch (ScacheException e) {
      LOG.info("{}: SCache was not told that {} wrote as Tez's shuffle: {}", context.getInputOutputVertexNames(),
          context.getUniqueIdentifier(), e.getMessage());
    }
    return report().writtenAsTez(where);
  }

  /**
   * The report of a producer attempt SCache refused to register ({@code why}): its output is served by Tez's shuffle
   * service from {@code where}.
   */
  static ProducerReport refusedAtStart(OutputContext context, Configuration conf, int partitions,
      TezShuffleOutput where, IOException why) throws IOException {
    LOG.warn("{}: {}; its consumers read the output from Tez's shuffle service", context.getInputOutputVertexNames(),
        why.getMessage());
    context.getCounters().findCounter(ScacheTezCounter.OUTPUTS_WRITTEN_AS_TEZ).increment(1);
    String worker;
    try {
      worker = TaskScache.localWorker(conf);
    } catch (IOException e) {
      worker = "";
    }
    return new ProducerReport(EdgeShuffle.of(conf, context.getDagIdentifier()).shuffleId(), context.getTaskIndex(),
        context.getTaskAttemptNumber(), partitions, worker, TaskScache.containerId(), where);
  }

  ProducerReport report() {
    return new ProducerReport(shuffleId, context.getTaskIndex(), context.getTaskAttemptNumber(), partitions, worker,
        TaskScache.containerId());
  }

  @Override
  public void close() {
    client.close();
  }
}
