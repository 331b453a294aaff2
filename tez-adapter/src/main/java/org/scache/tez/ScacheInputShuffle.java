package org.scache.tez;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.apache.tez.common.counters.TaskCounter;
import org.apache.tez.runtime.api.Event;
import org.apache.tez.runtime.api.InputContext;
import org.apache.tez.runtime.library.common.InputAttemptIdentifier;
import org.scache.client.ReduceInput;
import org.scache.client.ScacheClient;
import org.scache.common.BlockId;
import org.scache.common.Clock;
import org.scache.common.DaemonThreads;
import org.scache.common.ScacheException;
import org.scache.common.protocol.Status;
import org.scache.common.shuffle.ShufflePlacement;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The copy of an SCache input, ordered or unordered: once the events name a final attempt for every
 * physical input, it reads each partition's blocks with one {@code getReduceInputInPlace} through the
 * node's worker (which has prefetched them when the task runs where it was placed; each block is read
 * where it lies in the worker's shared memory and copied once, into the sink), reads single
 * blocks for attempts that became final later, and hands every segment to its {@link SegmentSink}:
 * Tez's own MergeManager for an ordered input, held segments for an unordered one.
 *
 * @param <R> what the sink makes of the segments, which the input's reader reads
 */
final class ScacheInputShuffle<R> {
  private static final Logger LOG = LoggerFactory.getLogger(ScacheInputShuffle.class);
  private static final long POLL_MILLIS = 200;

  private final InputContext context;
  private final Configuration conf;
  private final ConsumerInputs inputs;
  private final SegmentSink<R> merger;
  private final ExecutorService executor;
  private Future<R> result;
  /** Reads the partitions of producers whose output SCache did not take; made for the first one. */
  private TezShuffleReads tezShuffle;

  ScacheInputShuffle(InputContext context, Configuration conf, int numInputs, SegmentSink<R> sink) {
    this.context = context;
    this.conf = conf;
    this.inputs = new ConsumerInputs(numInputs);
    this.merger = sink;
    this.executor = Executors.newSingleThreadExecutor(
        DaemonThreads.named("scache-shuffle " + context.getInputOutputVertexNames()));
  }

  void start() {
    merger.start();
    result = executor.submit(this::copyAndMerge);
    executor.shutdown();
  }

  void handleEvents(List<Event> events) {
    inputs.apply(events);
  }

  boolean isInputReady() {
    return result != null && result.isDone();
  }

  R waitForInput() throws IOException, InterruptedException {
    try {
      return result.get();
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IOException) {
        throw (IOException) cause;
      }
      throw new IOException("the SCache shuffle of " + context.getInputOutputVertexNames() + " failed", cause);
    }
  }

  void shutdown() {
    if (result != null && !result.isDone()) {
      result.cancel(true);
      merger.abandon();
    }
    executor.shutdownNow();
  }

  private R copyAndMerge() throws Exception {
    long start = System.currentTimeMillis();
    try (ScacheClient client = TaskScache.open(context, conf)) {
      copy(client);
    }
    context.getCounters().findCounter(TaskCounter.SHUFFLE_PHASE_TIME).setValue(System.currentTimeMillis() - start);
    checkFailure();
    R merged;
    try {
      merged = merger.finish();
    } catch (IOException | RuntimeException t) {
      throw new IOException("final merge of the SCache input of " + context.getInputOutputVertexNames() + " failed",
          t);
    }
    context.getCounters().findCounter(TaskCounter.MERGE_PHASE_TIME).setValue(System.currentTimeMillis() - start);
    checkFailure();
    context.inputIsReady();
    return merged;
  }

  /** Reads every input into the merger, reporting lost producer attempts until they are re-run. */
  private void copy(ScacheClient client) throws IOException, InterruptedException {
    LostInputs lost = new LostInputs(context, Clock.SYSTEM,
        TezScacheSettings.duration(conf, TezScacheOptions.READ_ERROR_REPORT_INTERVAL).toMillis(),
        TezScacheSettings.duration(conf, TezScacheOptions.LOST_INPUT_TIMEOUT).toMillis());
    boolean bulkDone = false;
    while (!inputs.allRead()) {
      checkFailure();
      if (Thread.currentThread().isInterrupted()) {
        throw new InterruptedException("SCache shuffle interrupted");
      }
      lost.retainCurrent(inputs);
      if (!bulkDone && inputs.allKnown()) {
        bulkDone = true;
        checkPlacement(client);
        for (int partition : inputs.partitions()) {
          ReduceInput input = readPartition(client, partition);
          try {
            Map<Long, ReduceInput.Block> blocks = new HashMap<>();
            for (ReduceInput.Block b : input == null ? List.<ReduceInput.Block>of() : input.blocks()) {
              blocks.put(key(b.blockId().mapId(), b.blockId().attempt()), b);
            }
            for (ConsumerInputs.Source s : inputs.unread()) {
              if (s.partition() == partition) {
                ReduceInput.Block b = blocks.remove(key(s.mapId(), s.attempt()));
                copyOne(client, s, b == null ? null : b.data(), lost);
                if (b != null) {
                  input.release(b);
                }
              }
            }
          } finally {
            if (input != null) {
              input.release();
            }
          }
        }
      } else if (bulkDone) {
        for (ConsumerInputs.Source s : inputs.unread()) {
          if (!lost.isLost(s)) {
            copyOne(client, s, null, lost);
          }
        }
      }
      if (!inputs.allRead()) {
        lost.reportAgainIfDue();
        context.notifyProgress();
        inputs.awaitChange(POLL_MILLIS);
      }
    }
  }

  /**
   * Every producer's block of one partition, read where the worker holds it (its shared memory) or
   * copied into the client's reused buffers, never into one array of the whole input; each block is
   * copied into the merger and released. Null when the worker cannot tell: then block by block.
   */
  private ReduceInput readPartition(ScacheClient client, int partition) {
    try {
      return client.getReduceInputInPlace(inputs.shuffleId(), partition);
    } catch (ScacheException e) {
      LOG.warn("{}: reading partition {} from SCache at once failed ({}); reading it block by block",
          context.getInputOutputVertexNames(), partition, e.getMessage());
      return null;
    }
  }

  private void copyOne(ScacheClient client, ConsumerInputs.Source s, ByteBuffer block, LostInputs lost)
      throws IOException, InterruptedException {
    if (s.onTez() != null) {
      copyFromTez(s, lost);
      return;
    }
    ByteBuffer data = block;
    if (data == null) {
      try {
        data = ByteBuffer.wrap(client.getBlock(new BlockId(client.appId(), inputs.shuffleId(), s.mapId(),
            s.attempt(), s.partition())));
        context.getCounters().findCounter(ScacheTezCounter.BLOCKS_READ_SINGLY).increment(1);
      } catch (ScacheException e) {
        if (e.status() == Status.BLOCK_NOT_FOUND || e.status() == Status.UNKNOWN_SHUFFLE) {
          LOG.warn("{}: SCache lost the block of {}: {}", context.getInputOutputVertexNames(), s, e.getMessage());
          lost.add(s, e.getMessage());
          return;
        }
        throw new IOException("SCache read of " + s + " failed: " + e.getMessage(), e);
      }
    }
    if (!inputs.markRead(s)) {
      return;
    }
    TezBlock header = merge(s, data);
    context.getCounters().findCounter(ScacheTezCounter.BLOCKS_READ).increment(1);
    context.getCounters().findCounter(ScacheTezCounter.BYTES_READ).increment(header.partLength());
  }

  /**
   * Reads a partition of a producer whose output SCache did not take from Tez's shuffle service on its node (none
   * when it wrote no record); one that cannot be read is reported as lost, and Tez runs the producer again.
   */
  private void copyFromTez(ConsumerInputs.Source s, LostInputs lost) throws IOException, InterruptedException {
    ByteBuffer data;
    if (s.onTez().empty()) {
      data = ByteBuffer.allocate(TezBlock.HEADER_BYTES);
      new TezBlock(0, 0).writeHeader(data.duplicate());
    } else {
      if (tezShuffle == null) {
        tezShuffle = new TezShuffleReads(context, conf);
      }
      try {
        data = tezShuffle.read(s);
      } catch (IOException e) {
        LOG.warn("{}: the output of {}, written as Tez's shuffle, could not be read from {}:{}: {}",
            context.getInputOutputVertexNames(), s, s.onTez().host(), s.onTez().port(), e.getMessage());
        lost.add(s, e.getMessage());
        return;
      }
      context.getCounters().findCounter(ScacheTezCounter.OUTPUTS_READ_FROM_NODE_MANAGERS).increment(1);
    }
    if (inputs.markRead(s)) {
      merge(s, data);
    }
  }

  /** Hands one segment to the sink; its header. */
  private TezBlock merge(ConsumerInputs.Source s, ByteBuffer block) throws IOException, InterruptedException {
    TezBlock header = TezBlock.readHeader(block, "block of " + s);
    merger.add(new InputAttemptIdentifier(s.index(), s.attempt()), block, header);
    context.getCounters().findCounter(TaskCounter.NUM_SHUFFLED_INPUTS).increment(1);
    context.getCounters().findCounter(TaskCounter.SHUFFLE_BYTES).increment(header.partLength());
    context.getCounters().findCounter(TaskCounter.SHUFFLE_BYTES_DECOMPRESSED).increment(header.rawLength());
    context.notifyProgress();
    return header;
  }

  /** Counts whether this task runs on the worker the pre-schedule placed its partitions on. */
  private void checkPlacement(ScacheClient client) {
    String local;
    try {
      local = TaskScache.localWorker(conf);
    } catch (IOException e) {
      return;
    }
    // the vertex's SCache inputs, in edge order, as its vertex manager voted; only the first one counts
    java.util.TreeSet<Integer> edges = new java.util.TreeSet<>();
    conf.getPropsWithPrefix(TezScacheSettings.SOURCE_EDGE_ORDINAL_PREFIX).values()
        .forEach(v -> edges.add(Integer.parseInt(v)));
    int ownEdge = conf.getInt(TezScacheSettings.EDGE_ORDINAL, -1);
    if (!edges.isEmpty() && edges.first() != ownEdge) {
      return;
    }
    if (edges.isEmpty()) {
      edges.add(ownEdge);
    }
    List<ShufflePlacement> schedules = new ArrayList<>();
    for (int edge : edges) {
      int shuffle = TezScacheSettings.shuffleId(context.getDagIdentifier(), edge);
      try {
        schedules.add(client.getScheduleResult(shuffle));
      } catch (ScacheException e) {
        LOG.info("{}: no SCache schedule for shuffle {} ({})", context.getInputOutputVertexNames(), shuffle,
            e.getMessage());
      }
    }
    Optional<org.scache.common.WorkerInfo> placed = ConsumerPlacement.workerFor(schedules, inputs.partitions());
    if (placed.isEmpty()) {
      context.getCounters().findCounter(ScacheTezCounter.CONSUMERS_WITHOUT_SCHEDULE).increment(1);
      return;
    }
    boolean here = placed.get().address().equals(local) || placed.get().workerId().equals(local);
    context.getCounters().findCounter(here ? ScacheTezCounter.CONSUMERS_ON_SCHEDULED_WORKER
        : ScacheTezCounter.CONSUMERS_OFF_SCHEDULED_WORKER).increment(1);
    LOG.info("SCache consumer: dag {} vertex {} task {} (partitions {}) placed on worker {}, runs on worker {}",
        context.getDagIdentifier(), context.getTaskVertexName(), context.getTaskIndex(), inputs.partitions(),
        placed.get().workerId(), local);
  }

  private void checkFailure() throws IOException {
    Throwable t = merger.failure();
    if (t != null) {
      throw new IOException("merging the SCache input of " + context.getInputOutputVertexNames() + " failed", t);
    }
    String obsolete = inputs.obsoleteAfterRead();
    if (obsolete != null) {
      throw new IOException(context.getInputOutputVertexNames() + ": " + obsolete
          + "; this consumer attempt must run again");
    }
  }

  private static long key(int mapId, int attempt) {
    return ((long) mapId << 32) | (attempt & 0xffffffffL);
  }
}
