package org.scache.hadoop.reduce;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapred.ShuffleConsumerPlugin;
import org.apache.hadoop.mapred.TaskAttemptID;
import org.apache.hadoop.mapred.TaskStatus;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.task.reduce.MapHost;
import org.apache.hadoop.mapreduce.task.reduce.MapOutput;
import org.apache.hadoop.mapreduce.task.reduce.MergeManagerImpl;
import org.apache.hadoop.mapreduce.task.reduce.Shuffle;
import org.apache.hadoop.mapreduce.task.reduce.ShuffleClientMetrics;
import org.scache.client.ByteBufferInputStream;
import org.scache.client.ReduceInput;
import org.scache.client.ScacheClient;
import org.scache.common.BlockId;
import org.scache.common.Clock;
import org.scache.common.ScacheException;
import org.scache.common.config.ScacheConf;
import org.scache.common.protocol.Status;
import org.scache.hadoop.MapOutputBlock;
import org.scache.hadoop.MapReduceOptions;
import org.scache.hadoop.ScacheCounter;
import org.scache.hadoop.ShuffleChoice;
import org.scache.hadoop.TaskScacheClient;
import org.scache.yarn.HadoopScacheConf;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reduce-side shuffle ({@code mapreduce.job.reduce.shuffle.consumer.plugin.class}) that reads the
 * reduce's input from SCache. It learns each map's final attempt from the map completion events,
 * reads the whole input with one {@code getReduceInput} from the node's worker once every map has
 * succeeded (the worker fetches remote blocks itself), reads single blocks for maps re-run later,
 * and feeds every run to Hadoop's MergeManagerImpl, so merging, the combiner, memory limits,
 * progress and counters behave as in Hadoop's own shuffle. A map whose block is lost is reported
 * as a fetch failure, so the application master re-runs it. When the job does not enable SCache it
 * is Hadoop's own Shuffle.
 */
public class ScacheShuffleConsumerPlugin<K, V> implements ShuffleConsumerPlugin<K, V> {
  private static final Logger LOG = LoggerFactory.getLogger(ScacheShuffleConsumerPlugin.class);
  private static final MapHost SCACHE_HOST = new MapHost("scache", "scache:");

  private Shuffle<K, V> hadoopShuffle;
  private Context<K, V> context;
  private JobConf job;
  private TaskAttemptID reduceId;
  private MergeManagerImpl<K, V> merger;
  private ShuffleClientMetrics metrics;
  private volatile Throwable mergeFailure;
  private ScacheConf conf;
  /** When the whole input was asked of the worker and when it came (System.nanoTime), for the reduce's log. */
  private long bulkReadAt;
  private long bulkReadDone;
  /** Reads the outputs of maps written as Hadoop's shuffle; made for the first such map. */
  private ShuffleHandlerReads nodeManagers;

  @Override
  public void init(Context<K, V> context) {
    this.context = context;
    this.job = context.getJobConf();
    if (!ShuffleChoice.forTask(job, System.getenv())) {
      hadoopShuffle = new Shuffle<>();
      hadoopShuffle.init(context);
      return;
    }
    conf = HadoopScacheConf.from(job);
    reduceId = (TaskAttemptID) context.getReduceId();
    metrics = ShuffleClientMetrics.create(reduceId, job);
    merger = new MergeManagerImpl<>(reduceId, mergeConf(job, conf), context.getLocalFS(),
        context.getLocalDirAllocator(),
        context.getReporter(), context.getCodec(), context.getCombinerClass(), context.getCombineCollector(),
        context.getSpilledRecordsCounter(), context.getReduceCombineInputCounter(),
        context.getMergedMapOutputsCounter(), this::mergeFailed, context.getMergePhase(),
        new UniqueInputFiles(context.getMapOutputFile()));
  }

  /**
   * The job's configuration as the merger reads it: its input may stay in memory through the reduce up
   * to {@code scache.hadoop.reduce.input.retained} of the shuffle memory, or the job's own setting if larger.
   */
  static JobConf mergeConf(JobConf job, ScacheConf conf) {
    float retained = conf.get(MapReduceOptions.REDUCE_INPUT_RETAINED).floatValue();
    if (job.getFloat(MRJobConfig.REDUCE_INPUT_BUFFER_PERCENT, 0f) >= retained) {
      return job;
    }
    JobConf merge = new JobConf(job);
    merge.setFloat(MRJobConfig.REDUCE_INPUT_BUFFER_PERCENT, retained);
    return merge;
  }

  @Override
  public RawKeyValueIterator run() throws IOException, InterruptedException {
    if (hadoopShuffle != null) {
      return hadoopShuffle.run();
    }
    long start = System.nanoTime();
    long opened;
    try (ScacheClient client = TaskScacheClient.open(job, reduceId.getJobID(),
        context.getReduceTask().getShuffleSecret())) {
      opened = System.nanoTime();
      bulkReadAt = opened;
      bulkReadDone = opened;
      copy(client);
    }
    long copied = System.nanoTime();
    context.getCopyPhase().complete();
    context.getStatus().setPhase(TaskStatus.Phase.SORT);
    context.getReduceTask().statusUpdate(context.getUmbilical());
    RawKeyValueIterator merged;
    try {
      merged = merger.close();
    } catch (Throwable t) {
      throw new IOException("final merge of the SCache shuffle input of " + reduceId + " failed", t);
    }
    checkMerge();
    LOG.info("{} read its input through SCache: client opened in {} ms, every map's runs in the merger {} ms later "
        + "(waited {} ms for the maps, {} ms for the worker's answer), final merge {} ms", reduceId,
        millis(opened - start),
        millis(copied - opened), millis(bulkReadAt - opened), millis(bulkReadDone - bulkReadAt),
        millis(System.nanoTime() - copied));
    return merged;
  }

  @Override
  public void close() {
    if (hadoopShuffle != null) {
      hadoopShuffle.close();
    }
    if (nodeManagers != null) {
      nodeManagers.close();
    }
  }

  /** Reads every map's runs into the merger, reporting lost maps until they are re-run. */
  private void copy(ScacheClient client) throws IOException, InterruptedException {
    MapCompletionTracker maps = new MapCompletionTracker(context.getUmbilical(), reduceId.getJobID(), reduceId,
        job.getNumMapTasks());
    LostMaps lost = new LostMaps(conf, context.getStatus(), context.getReporter(), context.getFailedShuffleCounter(),
        Clock.SYSTEM);
    boolean[] copied = new boolean[maps.numMaps()];
    int done = 0;
    ReduceInput bulkInput = null;
    long pollMillis = conf.get(MapReduceOptions.REDUCE_POLL_INTERVAL).toMillis();
    try {
      while (done < maps.numMaps()) {
        checkMerge();
        maps.poll();
        lost.retainCurrent(maps::isFinalAttempt);
        List<Integer> ready = new ArrayList<>();
        boolean allKnown = true;
        for (int m = 0; m < maps.numMaps(); m++) {
          if (copied[m]) {
            continue;
          }
          if (maps.failedForGood(m)) {
            copied[m] = true;
            done++;
            continue;
          }
          Optional<TaskAttemptID> attempt = maps.finalAttempt(m);
          if (attempt.isEmpty()) {
            allKnown = false;
          } else if (!lost.isLost(attempt.get())) {
            ready.add(m);
          }
        }
        Map<Integer, ReduceInput.Block> bulk = Map.of();
        if (bulkInput == null && allKnown && !ready.isEmpty()) {
          bulkReadAt = System.nanoTime();
          bulkInput = readReduceInput(client);
          bulkReadDone = System.nanoTime();
          bulk = byMap(bulkInput);
        }
        for (int m : ready) {
          TaskAttemptID attempt = maps.finalAttempt(m).orElseThrow();
          ReduceInput.Block block = bulk.get(m);
          ByteBuffer main = block != null && block.blockId().attempt() == attempt.getId() ? block.data() : null;
          boolean copiedMap = ShuffleChoice.writesAsHadoop(attempt)
              ? copyFromNodeManager(attempt, maps.httpAddress(m)) : copyMap(client, attempt, main);
          if (block != null) {
            bulkInput.release(block);
          }
          if (copiedMap) {
            copied[m] = true;
            done++;
            lost.recovered(attempt);
            context.getShuffledMapsCounter().increment(1);
            context.getCopyPhase().set((float) done / maps.numMaps());
            context.getStatus().setStateString("copy (" + done + " of " + maps.numMaps() + " maps through SCache)");
            context.getReporter().progress();
          } else {
            context.getReporter().getCounter(ScacheCounter.LOST_MAP_OUTPUTS).increment(1);
            lost.add(attempt);
          }
        }
        if (done < maps.numMaps()) {
          lost.reportAgainIfDue();
          context.getReporter().progress();
          Thread.sleep(pollMillis);
        }
      }
    } finally {
      if (bulkInput != null) {
        bulkInput.release();
      }
    }
  }

  /**
   * Every finished map's block for this reduce, read where the worker holds it where it can be (each
   * is released once copied into the merger); empty when the worker cannot tell (blocks read one by one).
   */
  private ReduceInput readReduceInput(ScacheClient client) {
    try {
      return client.getReduceInputInPlace(TaskScacheClient.SHUFFLE_ID, reduceId.getTaskID().getId());
    } catch (ScacheException e) {
      LOG.warn("reading the whole input of {} from SCache failed ({}); reading map by map", reduceId, e.getMessage());
      return new ReduceInput(0, 0, List.of());
    }
  }

  private static Map<Integer, ReduceInput.Block> byMap(ReduceInput input) {
    Map<Integer, ReduceInput.Block> byMap = new HashMap<>();
    input.blocks().forEach(b -> byMap.put(b.blockId().mapId(), b));
    return byMap;
  }

  /**
   * Copies every run of one map attempt into the merger; false when a block of it is gone. All runs
   * are read before any is handed on, so a lost run never leaves part of a map in the merger.
   */
  private boolean copyMap(ScacheClient client, TaskAttemptID attempt, ByteBuffer mainBlock) throws IOException {
    int map = attempt.getTaskID().getId();
    int reduce = reduceId.getTaskID().getId();
    try {
      ByteBuffer main = mainBlock != null ? mainBlock.duplicate() : ByteBuffer.wrap(client.getBlock(
          new BlockId(client.appId(), TaskScacheClient.SHUFFLE_ID, map, attempt.getId(), reduce)));
      List<ByteBuffer> runs = new ArrayList<>();
      runs.add(main);
      int count = MapOutputBlock.readHeader(main.duplicate(), "block of " + attempt).runs();
      for (int s = 0; s < count - 1; s++) {
        runs.add(ByteBuffer.wrap(client.getBlock(new BlockId(client.appId(), MapOutputBlock.spillShuffle(s), map,
            attempt.getId(), reduce))));
      }
      for (ByteBuffer run : runs) {
        merge(attempt, run);
      }
      return true;
    } catch (ScacheException e) {
      if (e.status() == Status.BLOCK_NOT_FOUND || e.status() == Status.UNKNOWN_SHUFFLE) {
        LOG.warn("SCache lost the output of {} for {}: {}", attempt, reduceId, e.getMessage());
        return false;
      }
      throw new IOException("SCache read of " + attempt + " for " + reduceId + " failed: " + e.getMessage(), e);
    }
  }

  /**
   * Copies the output of a map attempt that wrote as Hadoop's shuffle into the merger, read from the shuffle service
   * of the NodeManager it ran on; false when it cannot be read (reported as a fetch failure, as Hadoop's fetcher
   * reports it, so that the application master runs the map again).
   */
  private boolean copyFromNodeManager(TaskAttemptID attempt, String httpAddress) throws IOException {
    if (nodeManagers == null) {
      nodeManagers = new ShuffleHandlerReads(job, context.getReduceTask().getShuffleSecret());
    }
    int reduce = reduceId.getTaskID().getId();
    try (ShuffleHandlerReads.MapSegment segment = nodeManagers.open(httpAddress, reduceId.getJobID().toString(),
        attempt, reduce)) {
      shuffleInto(attempt, new MapHost(httpAddress, httpAddress), segment.in(), segment.compressedLength(),
          segment.rawLength());
      context.getReporter().getCounter(ScacheCounter.OUTPUTS_READ_FROM_NODE_MANAGERS).increment(1);
      return true;
    } catch (IOException e) {
      LOG.warn("the output of {}, written as Hadoop's shuffle, could not be read from {} for {}: {}", attempt,
          httpAddress, reduceId, e.getMessage());
      return false;
    }
  }

  /**
   * Hands one run of {@code attempt} ({@code partLength} bytes of {@code in}, {@code rawLength} once decompressed) to
   * the merger, which keeps it in memory or writes it to disk as Hadoop's fetchers do, waiting for it to make room.
   */
  private void shuffleInto(TaskAttemptID attempt, MapHost from, InputStream in, long partLength, long rawLength)
      throws IOException {
    MapOutput<K, V> out;
    try {
      while ((out = merger.reserve(attempt, rawLength, 0)) == null) {
        merger.waitForResource();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while waiting for shuffle memory", e);
    }
    try {
      out.shuffle(from, in, partLength, rawLength, metrics, context.getReporter());
      out.commit();
    } catch (IOException | RuntimeException e) {
      out.abort();
      throw e;
    }
    context.getReduceShuffleBytes().increment(partLength);
  }

  /** Hands one SCache block's run to the merger. */
  private void merge(TaskAttemptID attempt, ByteBuffer block) throws IOException {
    MapOutputBlock header = MapOutputBlock.readHeader(block, "block of " + attempt);
    shuffleInto(attempt, SCACHE_HOST, ByteBufferInputStream.of(block), header.partLength(), header.rawLength());
    context.getReporter().getCounter(ScacheCounter.RUNS_READ).increment(1);
    context.getReporter().getCounter(ScacheCounter.BYTES_READ).increment(header.partLength());
  }

  private static long millis(long nanos) {
    return nanos / 1_000_000;
  }

  private void mergeFailed(Throwable t) {
    if (mergeFailure == null) {
      mergeFailure = t;
    }
  }

  private void checkMerge() throws IOException {
    Throwable t = mergeFailure;
    if (t != null) {
      throw new IOException("merging the shuffle input of " + reduceId + " failed", t);
    }
  }
}
