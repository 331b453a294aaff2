package org.scache.benchmarks.hadoop;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.scache.benchmarks.harness.ByteSize;
import org.scache.common.WorkerInfo;
import org.scache.common.config.ScacheOptions;
import org.scache.hadoop.MiniScacheYarnCluster;

/**
 * The cluster the demo and the benchmark sort on: a MiniMRYarnCluster whose NodeManagers each host an
 * SCache worker, and an SCache master, all in this JVM ({@link MiniScacheYarnCluster}), sized for
 * TeraSort on a small machine. Task containers are separate JVMs. Each NodeManager has a loopback
 * address of its own (127.0.0.2, ...), so that YARN can be asked for any one of them, as for machines.
 *
 * <p>Each NodeManager offers {@link #NODE_MANAGER_MEMORY_MB}, four task containers of
 * {@link #TASK_MEMORY_MB} (the one that also runs the job's application master, two). Maps read
 * splits of {@link #SPLIT_BYTES}, and their sort buffer holds a whole split's output, so every map
 * writes one run. Speculative attempts are off for both shuffles, so that the two jobs run the same
 * tasks.
 */
final class TerasortCluster implements SortCluster {
  static final int NODE_MANAGER_MEMORY_MB = 2048;
  static final int TASK_MEMORY_MB = 512;
  static final long SPLIT_BYTES = 32 * ByteSize.MIB;
  /** Reduce input per reduce at most (a reduce through SCache holds its input in its heap once). */
  static final long REDUCE_INPUT_BYTES = 64 * ByteSize.MIB;

  private final MiniScacheYarnCluster cluster;
  private final int nodeManagers;
  private final String name;
  private String taskJavaOpts = "";

  private TerasortCluster(MiniScacheYarnCluster cluster, int nodeManagers, String name) {
    this.cluster = cluster;
    this.nodeManagers = nodeManagers;
    this.name = name;
  }

  /**
   * Starts the cluster in {@code target/<name>} (which it empties first). Each worker reserves
   * {@code workerReserveBytes} of shared memory for blocks (pages are taken only as blocks arrive).
   */
  static TerasortCluster start(String name, int nodeManagers, long workerReserveBytes) throws Exception {
    MiniScacheYarnCluster c = new MiniScacheYarnCluster(name, nodeManagers, true, conf -> {
      conf.setInt(YarnConfiguration.YARN_MINICLUSTER_NM_PMEM_MB, NODE_MANAGER_MEMORY_MB);
      conf.set(ScacheOptions.WORKER_MEMORY_RESERVE.key(), Long.toString(workerReserveBytes));
      // task logs stay readable under target/test/data/<name> after the jobs
      conf.setLong(YarnConfiguration.NM_LOG_RETAIN_SECONDS, 3600);
    });
    return new TerasortCluster(c, nodeManagers, name);
  }

  @Override
  public int nodeManagers() {
    return nodeManagers;
  }

  @Override
  public JobConf jobConf() {
    JobConf job = forTerasort(cluster.jobConf());
    if (!taskJavaOpts.isBlank()) {
      job.set(MRJobConfig.MAP_JAVA_OPTS, job.get(MRJobConfig.MAP_JAVA_OPTS) + " " + taskJavaOpts);
      job.set(MRJobConfig.REDUCE_JAVA_OPTS, job.get(MRJobConfig.REDUCE_JAVA_OPTS) + " " + taskJavaOpts);
    }
    return job;
  }

  /**
   * Adds {@code opts} to the JVM options of every map and reduce of the jobs this cluster's
   * {@link #jobConf()} configures from now on, on both shuffles (for example a JFR recording).
   */
  TerasortCluster withTaskJavaOpts(String opts) {
    this.taskJavaOpts = opts.trim();
    return this;
  }

  /** The task sizes and split sizes of the benchmark set on {@code job}; returns it. */
  static JobConf forTerasort(JobConf job) {
    job.setInt(MRJobConfig.MAP_MEMORY_MB, TASK_MEMORY_MB);
    job.setInt(MRJobConfig.REDUCE_MEMORY_MB, TASK_MEMORY_MB);
    job.set(MRJobConfig.MAP_JAVA_OPTS, "-Xmx320m");
    job.set(MRJobConfig.REDUCE_JAVA_OPTS, "-Xmx400m");
    // a 32 MiB split of 100-byte records is ~37 MiB in the sort buffer (16 bytes of metadata each): one run
    job.setInt(MRJobConfig.IO_SORT_MB, 64);
    job.setLong(FileInputFormat.SPLIT_MINSIZE, SPLIT_BYTES);
    job.setLong(FileInputFormat.SPLIT_MAXSIZE, SPLIT_BYTES);
    job.setBoolean(MRJobConfig.MAP_SPECULATIVE, false);
    job.setBoolean(MRJobConfig.REDUCE_SPECULATIVE, false);
    return job;
  }

  /** The cluster's directory: inputs, outputs, and the NodeManagers' local and log directories. */
  @Override
  public Path dir() {
    return cluster.workDir();
  }

  /** MiniYARNCluster's directory, {@code target/test/data/<name>}, which holds the NodeManagers' log directories. */
  @Override
  public Path containerLogs() {
    return Path.of("target", "test", "data", name).toAbsolutePath();
  }

  @Override
  public List<String> workers() {
    return cluster.master().liveWorkers().stream().map(WorkerInfo::address).sorted().collect(Collectors.toList());
  }

  @Override
  public Map<String, Long> workerStats() {
    return cluster.workerStats();
  }

  @Override
  public void close() {
    cluster.close();
  }
}
