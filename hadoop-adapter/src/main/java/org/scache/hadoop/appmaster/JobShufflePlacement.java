package org.scache.hadoop.appmaster;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TypeConverter;
import org.apache.hadoop.mapreduce.split.JobSplit.TaskSplitMetaInfo;
import org.apache.hadoop.mapreduce.split.SplitMetaInfoReader;
import org.apache.hadoop.mapreduce.v2.app.job.Job;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.scache.client.ScacheClient;
import org.scache.client.ShuffleHints;
import org.scache.common.Clock;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import org.scache.common.network.ClientTransport;
import org.scache.common.shuffle.PartitionerKind;
import org.scache.hadoop.MapReduceOptions;
import org.scache.hadoop.PartitionerKinds;
import org.scache.hadoop.TaskScacheClient;
import org.scache.yarn.HadoopScacheConf;
import org.scache.yarn.YarnOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * SCache's part of a MapReduce application master at job start (paper Section III-B): registers the
 * job's shuffle with the master before any map runs (maps, reduces, partitioner kind and each map's
 * input split size, the regression's {@code inputSize_j}); for range and custom partitioners samples
 * the job's input in the background and sends the samples; and then waits for the master's placement,
 * which {@link ReducePlacement} uses to launch every reduce on its pre-scheduled node. While the job
 * runs, {@link CommittedReduces} frees each reduce's input once the reduce has committed.
 */
final class JobShufflePlacement implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(JobShufflePlacement.class);
  /** Evenly spaced windows read from each file split when sampling. */
  static final int SAMPLING_WINDOWS = 8;

  private final JobConf conf;
  private final ScacheClient client;
  private final ScheduleWatcher watcher;
  private final NodeWorkers nodeWorkers;
  private final ReducePlacement placement;
  private final ReduceLaunchLead launchLead;
  private final ScacheConf scache;
  private Thread sampling;
  private CommittedReduces committed;

  JobShufflePlacement(JobConf conf, String appId, byte[] secret, Clock clock) {
    this.conf = conf;
    this.scache = HadoopScacheConf.from(conf);
    // a few calls from threads of its own, one at a time: the blocking transport
    ScacheConf quick = scache.with(ScacheOptions.CLIENT_RETRY_MAX, 1)
        .with(ScacheOptions.CLIENT_REQUEST_TIMEOUT.key(), scache.get(YarnOptions.SUBMIT_CHECK_TIMEOUT)
            .toMillis() + "ms");
    this.client = ScacheClient.create(quick, appId, secret, ClientTransport.BLOCKING);
    this.watcher = new ScheduleWatcher(client, TaskScacheClient.SHUFFLE_ID, clock,
        scache.get(MapReduceOptions.PLACEMENT_SCHEDULE_WAIT));
    this.nodeWorkers = new NodeWorkers(scache.get(YarnOptions.AUX_SERVICE_NAME),
        conf.getBoolean(YarnConfiguration.RM_SCHEDULER_INCLUDE_PORT_IN_NODE_NAME,
            YarnConfiguration.DEFAULT_RM_SCHEDULER_USE_PORT_FOR_NODE_NAME));
    nodeWorkers.recordOwnNode(System.getenv());
    this.placement = new ReducePlacement(watcher, nodeWorkers, clock,
        scache.get(MapReduceOptions.PLACEMENT_DELAY).toMillis(),
        scache.get(MapReduceOptions.PLACEMENT_REMOTE_READ_RATE),
        scache.get(MapReduceOptions.PLACEMENT_SCHEDULE_WAIT).toMillis());
    this.launchLead = new ReduceLaunchLead(clock, scache.get(MapReduceOptions.REDUCE_LAUNCH_LEAD).toMillis());
  }

  NodeWorkers nodeWorkers() {
    return nodeWorkers;
  }

  ReducePlacement placement() {
    return placement;
  }

  ReduceLaunchLead launchLead() {
    return launchLead;
  }

  /** Registers the job's shuffle and starts sampling and waiting for the placement; never fails the job. */
  void start(Job job) {
    int maps = job.getTotalMaps();
    int reduces = job.getTotalReduces();
    if (reduces == 0) {
      watcher.giveUp("the job has no reduces");
      return;
    }
    try {
      TaskSplitMetaInfo[] splits = splits(job, maps);
      List<Long> inputSizes = new ArrayList<>(splits.length);
      for (TaskSplitMetaInfo split : splits) {
        inputSizes.add(split.getInputDataLength());
      }
      PartitionerKind kind = PartitionerKinds.of(conf);
      client.registerApplication();
      client.registerShuffle(TaskScacheClient.SHUFFLE_ID, maps, reduces, kind, ShuffleHints.inputSizes(inputSizes));
      LOG.info("{}: shuffle registered with {} maps ({} input bytes), {} reduces, {} partitioner", client.appId(), maps,
          inputSizes.stream().mapToLong(Long::longValue).sum(), reduces, kind);
      if (kind != PartitionerKind.HASH && maps > 0) {
        JobID jobId = TypeConverter.fromYarn(job.getID());
        sampling = new Thread(() -> sample(jobId, splits, reduces), "scache-input-sampling");
        sampling.setDaemon(true);
        sampling.start();
      }
      watcher.start(scache.get(MapReduceOptions.PLACEMENT_POLL_INTERVAL));
      committed = new CommittedReduces(job, client, TaskScacheClient.SHUFFLE_ID);
      committed.start(scache.get(MapReduceOptions.PLACEMENT_POLL_INTERVAL));
    } catch (IOException | ClassNotFoundException | RuntimeException e) {
      LOG.warn("{}: could not register the shuffle before the maps ({}); reduces run wherever YARN puts them",
          client.appId(), e.toString());
      watcher.giveUp(e.toString());
    }
  }

  private void sample(JobID jobId, TaskSplitMetaInfo[] splits, int reduces) {
    long start = System.nanoTime();
    try {
      JobInputSampler sampler = new JobInputSampler(conf, jobId,
          scache.get(MapReduceOptions.SAMPLING_SAMPLES_PER_REDUCE),
          scache.get(MapReduceOptions.SAMPLING_READ_PER_SPLIT), SAMPLING_WINDOWS, jobId.hashCode());
      client.reportSamples(TaskScacheClient.SHUFFLE_ID, sampler.sample(splits));
      LOG.info("{}: input sampled for {} reduces in {} ms", client.appId(), reduces,
          (System.nanoTime() - start) / 1_000_000);
    } catch (IOException | RuntimeException | LinkageError e) {
      LOG.warn("{}: sampling the input failed ({}); the master predicts from the first maps instead", client.appId(),
          e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private TaskSplitMetaInfo[] splits(Job job, int maps) throws IOException {
    Path jobDir = new Path(conf.get(MRJobConfig.MAPREDUCE_JOB_DIR));
    TaskSplitMetaInfo[] splits = SplitMetaInfoReader.readSplitMetaInfo(TypeConverter.fromYarn(job.getID()),
        FileSystem.get(conf), conf, jobDir);
    if (splits.length != maps) {
      throw new IOException("the job has " + maps + " maps but " + splits.length + " splits");
    }
    return splits;
  }

  /** Logs where the job's reduces ran. */
  void logOutcome() {
    int on = placement.onScheduledNode();
    int off = placement.elsewhere();
    if (on + off > 0) {
      LOG.info("{}: {} of {} reduce attempts ran on their pre-scheduled node ({}%)", client.appId(), on, on + off,
          100 * on / (on + off));
    }
  }

  @Override
  public void close() {
    logOutcome();
    watcher.close();
    if (committed != null) {
      committed.close();
    }
    if (sampling != null) {
      sampling.interrupt();
    }
    client.close();
  }

}
