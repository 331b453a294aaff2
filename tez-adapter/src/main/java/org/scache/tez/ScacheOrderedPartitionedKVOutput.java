package org.scache.tez;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.zip.Deflater;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.tez.common.TezCommonUtils;
import org.apache.tez.runtime.api.Event;
import org.apache.tez.runtime.api.OutputContext;
import org.apache.tez.runtime.api.events.CompositeDataMovementEvent;
import org.apache.tez.runtime.api.events.VertexManagerEvent;
import org.apache.tez.runtime.library.api.TezRuntimeConfiguration;
import org.apache.tez.runtime.library.common.shuffle.ShuffleUtils;
import org.apache.tez.runtime.library.common.sort.impl.ExternalSorter;
import org.apache.tez.runtime.library.common.sort.impl.TezIndexRecord;
import org.apache.tez.runtime.library.common.sort.impl.TezSpillRecord;
import org.apache.tez.runtime.library.output.OrderedPartitionedKVOutput;
import org.scache.client.ScacheClient;
import org.scache.common.BlockId;
import org.scache.common.ScacheException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The producer side of an ordered scatter-gather edge through SCache. Records are partitioned,
 * sorted and combined by Tez's own sorter ({@code tez.runtime.sorter.class}: PipelinedSorter or
 * DefaultSorter, with their spills and final merge); at close each partition's IFile segment is put
 * on the node's SCache worker as one block (shuffle of the edge, map = task index, attempt, reduce =
 * partition), the attempt is declared final, and the consumers are told so in a data movement event
 * of their own format. When the DAG does not enable SCache it is Tez's OrderedPartitionedKVOutput.
 */
public class ScacheOrderedPartitionedKVOutput extends OrderedPartitionedKVOutput {
  private static final Logger LOG = LoggerFactory.getLogger(ScacheOrderedPartitionedKVOutput.class);
  /** Block bytes handed to the worker and not yet acknowledged, at most. */
  private static final long MAX_BYTES_IN_FLIGHT = 64L << 20;

  private boolean useScache;
  private ProducerShuffle shuffle;
  private boolean closed;

  public ScacheOrderedPartitionedKVOutput(OutputContext outputContext, int numPhysicalOutputs) {
    super(outputContext, numPhysicalOutputs);
  }

  @Override
  public synchronized List<Event> initialize() throws IOException {
    List<Event> events = super.initialize();
    useScache = TezScacheSettings.enabled(conf);
    if (useScache) {
      // one final sorted file per attempt, whose partitions become the blocks
      conf.setBoolean(TezRuntimeConfiguration.TEZ_RUNTIME_ENABLE_FINAL_MERGE_IN_OUTPUT, true);
      conf.setBoolean(TezRuntimeConfiguration.TEZ_RUNTIME_PIPELINED_SHUFFLE_ENABLED, false);
    }
    return events;
  }

  @Override
  public synchronized void start() throws Exception {
    if (useScache && shuffle == null) {
      shuffle = ProducerShuffle.open(getContext(), conf, getNumPhysicalOutputs());
    }
    super.start();
  }

  @Override
  public synchronized List<Event> close() throws IOException {
    if (!useScache) {
      return super.close();
    }
    if (closed) {
      return new ArrayList<>();
    }
    closed = true;
    try {
      if (sorter == null) {
        // the processor never started this output: its partitions are put as empty segments all the same,
        // so that a missing block always means a lost one
        start();
      }
      ExternalSorter finished = sorter;
      finished.flush();
      List<Event> events = new ArrayList<>();
      for (Event e : finished.close()) {
        if (!(e instanceof CompositeDataMovementEvent)) {
          events.add(e);
        }
      }
      putPartitions(finished.getFinalOutputFile(), finished.getFinalIndexFile());
      shuffle.finish();
      Deflater deflater = TezCommonUtils.newBestCompressionDeflater();
      try {
        // Tez's own statistics for the ShuffleVertexManager's auto-parallelism, then SCache's report
        events.add(ShuffleUtils.generateVMEvent(getContext(), finished.getPartitionStats(),
            finished.reportDetailedPartitionStats(), deflater));
      } finally {
        deflater.end();
      }
      ByteBuffer report = shuffle.report().encode();
      events.add(VertexManagerEvent.create(getContext().getDestinationVertexName(), report.duplicate()));
      events.add(CompositeDataMovementEvent.create(0, getNumPhysicalOutputs(), report));
      sorter = null;
      return events;
    } catch (IOException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException("closing the SCache output of " + getContext().getInputOutputVertexNames()
          + " failed", e);
    } finally {
      if (shuffle != null) {
        shuffle.close();
      }
    }
  }

  /** Puts every partition of the sorter's final file as one block, then deletes the file. */
  private void putPartitions(Path file, Path index) throws IOException {
    FileSystem fs = FileSystem.getLocal(conf).getRaw();
    TezSpillRecord spillRecord = new TezSpillRecord(index, fs);
    List<CompletableFuture<Void>> puts = new ArrayList<>();
    long inFlight = 0;
    try (FSDataInputStream in = fs.open(file)) {
      for (int p = 0; p < getNumPhysicalOutputs(); p++) {
        TezIndexRecord r = spillRecord.getIndex(p);
        if (r.getPartLength() > Integer.MAX_VALUE - TezBlock.HEADER_BYTES) {
          throw new IOException("partition " + p + " of " + getContext().getUniqueIdentifier() + " has "
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
        puts.add(shuffle.put(p, ByteBuffer.wrap(block)));
        inFlight += block.length;
        getContext().getCounters().findCounter(ScacheTezCounter.BLOCKS_PUT).increment(1);
        getContext().getCounters().findCounter(ScacheTezCounter.BYTES_PUT).increment(r.getPartLength());
        getContext().notifyProgress();
      }
      join(puts);
    }
    if (!fs.delete(file, false) || !fs.delete(index, false)) {
      LOG.debug("the sorted output {} of {} was already gone", file, getContext().getUniqueIdentifier());
    }
  }

  private void join(List<CompletableFuture<Void>> puts) throws IOException {
    try {
      CompletableFuture.allOf(puts.toArray(CompletableFuture[]::new)).join();
    } catch (RuntimeException e) {
      ScacheException se = ScacheException.from(e);
      throw new IOException("SCache could not store the output of " + getContext().getUniqueIdentifier() + ": "
          + se.getMessage(), se);
    }
  }

  /** The SCache side of one producer attempt: registration, puts, the final-attempt declaration. */
  static final class ProducerShuffle implements AutoCloseable {
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

    static ProducerShuffle open(OutputContext context, org.apache.hadoop.conf.Configuration conf, int partitions)
        throws IOException {
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

    CompletableFuture<Void> put(int partition, ByteBuffer block) {
      BlockId id = new BlockId(client.appId(), shuffleId, context.getTaskIndex(), context.getTaskAttemptNumber(),
          partition);
      return client.putBlockAsync(id, block);
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

    ProducerReport report() {
      return new ProducerReport(shuffleId, context.getTaskIndex(), context.getTaskAttemptNumber(), partitions, worker,
          TaskScache.containerId());
    }

    @Override
    public void close() {
      client.close();
    }
  }
}
