package org.scache.hadoop;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.scache.common.ScacheException;
import org.scache.common.auth.Credentials;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import org.scache.common.network.ConnectionPool;
import org.scache.common.network.TransportSettings;
import org.scache.common.protocol.GetScheduleResult;
import org.scache.common.protocol.ScheduleResult;
import org.scache.common.shuffle.ShufflePlacement;
import org.scache.master.ScacheMaster;
import org.scache.yarn.ScacheAuxService;

/**
 * An in-process SCache master and a MiniMRYarnCluster whose NodeManagers load {@link ScacheAuxService}
 * by class name from their configuration, as a yarn-site.xml would, each with its own worker. Its
 * directory is {@code target/<name>} under the working directory. Published in the adapter's test jar
 * for the Hadoop benchmarks.
 */
public final class MiniScacheYarnCluster implements AutoCloseable {
  public static final String CLUSTER_SECRET = "mini-cluster-secret";

  /**
   * JVM options of the task and application master containers of a cluster {@link #forTests}: the client
   * compiler alone and the serial collector, since on two cores a short-lived JVM's C2 compilations take the
   * cores its job's other JVMs wait for.
   */
  public static final String QUICK_JVM_OPTS = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC";
  /** How often a test cluster's NodeManagers and application masters talk to the ResourceManager, and clients poll. */
  private static final int QUICK_HEARTBEAT_MS = 200;
  /**
   * The capacity scheduler's share of the cluster application masters may hold. A MapReduce or Tez application master
   * keeps its container for five seconds after its job has ended (so that clients read the final state from it); at
   * the default share (0.1) the next job's master waits for that container, at this one it starts at once.
   */
  public static final String AM_SHARE_KEY = "yarn.scheduler.capacity.maximum-am-resource-percent";
  public static final float AM_SHARE = 0.5f;

  private final ScacheMaster master;
  private final int nodeManagers;
  private boolean quick;
  private final MiniMRYarnCluster yarn;
  private final Path workDir;
  /** Connections to the master, for {@link #placement}; made on first use. */
  private ConnectionPool masterConnections;

  /** MiniMRYarnCluster.serviceInit() sets yarn.nodemanager.aux-services to mapreduce_shuffle alone; keep ours. */
  private static final class KeepAuxServicesConf extends YarnConfiguration {
    @Override
    public void set(String name, String value, String source) {
      if (NM_AUX_SERVICES.equals(name) && !value.contains(ScacheAuxService.NAME)) {
        value = value + "," + ScacheAuxService.NAME;
      }
      super.set(name, value, source);
    }
  }

  public MiniScacheYarnCluster(String name, int nodeManagers) throws Exception {
    this(name, nodeManagers, conf -> { });
  }

  /** A cluster whose YARN configuration {@code settings} adjusts before it starts. */
  public MiniScacheYarnCluster(String name, int nodeManagers, java.util.function.Consumer<Configuration> settings)
      throws Exception {
    this(name, nodeManagers, false, settings);
  }

  /**
   * A cluster whose YARN configuration {@code settings} adjusts before it starts. With {@code addressedNodes}
   * each NodeManager has a loopback address of its own ({@link AddressedNodes}), as machines have; without,
   * they share the host name {@code localhost} and the scheduler tells them apart by port.
   */
  public MiniScacheYarnCluster(String name, int nodeManagers, boolean addressedNodes,
      java.util.function.Consumer<Configuration> settings) throws Exception {
    this(name, nodeManagers, addressedNodes, settings, ScacheConf.empty());
  }

  /**
   * As {@link #MiniScacheYarnCluster(String, int, boolean, java.util.function.Consumer)}, the master set by
   * {@code masterConf} too.
   */
  public MiniScacheYarnCluster(String name, int nodeManagers, boolean addressedNodes,
      java.util.function.Consumer<Configuration> settings, ScacheConf masterConf) throws Exception {
    this.nodeManagers = nodeManagers;
    workDir = Path.of("target", name).toAbsolutePath();
    deleteRecursively(workDir);
    Files.createDirectories(workDir);
    master = ScacheMaster.start(masterConf
        .with(ScacheOptions.SECURITY_CLUSTER_SECRET, CLUSTER_SECRET)
        .with(ScacheOptions.MASTER_BIND_HOST, "127.0.0.1")
        .with(ScacheOptions.MASTER_PORT, 0)
        .with(ScacheOptions.MASTER_HTTP_BIND_HOST, "127.0.0.1")
        .with(ScacheOptions.MASTER_HTTP_PORT, 0)
        .with(ScacheOptions.MASTER_HEARTBEAT_INTERVAL.key(), "200ms")
        .with(ScacheOptions.MASTER_WORKER_EXPIRY.key(), "5s"));
    Configuration conf = new KeepAuxServicesConf();
    conf.set(YarnConfiguration.NM_AUX_SERVICES, "mapreduce_shuffle," + ScacheAuxService.NAME);
    conf.set(String.format(YarnConfiguration.NM_AUX_SERVICE_FMT, ScacheAuxService.NAME),
        "org.scache.yarn.ScacheAuxService");
    // what docs/deploy-yarn.md puts in yarn-site.xml; port 0 because the NodeManagers share this machine
    conf.set(ScacheOptions.SECURITY_CLUSTER_SECRET.key(), CLUSTER_SECRET);
    conf.set(ScacheOptions.WORKER_MASTER_ADDRESS.key(), "127.0.0.1:" + master.port());
    if (addressedNodes) {
      // each worker listens on and advertises its NodeManager's address
      AddressedNodes.configure(conf);
    } else {
      conf.set(ScacheOptions.WORKER_BIND_HOST.key(), "127.0.0.1");
      conf.set(ScacheOptions.WORKER_ADVERTISED_HOST.key(), "127.0.0.1");
      // the NodeManagers share a host: the scheduler tells them apart by port, as docs/deploy-yarn.md says
      conf.setBoolean(YarnConfiguration.RM_SCHEDULER_INCLUDE_PORT_IN_NODE_NAME, true);
    }
    conf.setInt(ScacheOptions.WORKER_PORT.key(), 0);
    conf.set(ScacheOptions.WORKER_HTTP_BIND_HOST.key(), "127.0.0.1");
    conf.setInt(ScacheOptions.WORKER_HTTP_PORT.key(), 0);
    conf.set(ScacheOptions.WORKER_MEMORY_RESERVE.key(), "256m");
    conf.set(ScacheOptions.WORKER_MEMORY_SEGMENT.key(), "64m");
    // no split's host ("localhost") names a NodeManager: maps go rack-local without waiting for one
    conf.setInt("yarn.scheduler.capacity.node-locality-delay", 0);
    conf.setInt(YarnConfiguration.YARN_MINICLUSTER_NM_PMEM_MB, 4096);
    conf.setInt(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, 256);
    // fast NodeManager shutdown
    conf.setLong(YarnConfiguration.NM_SLEEP_DELAY_BEFORE_SIGKILL_MS, 100);
    conf.setLong(YarnConfiguration.NM_PROCESS_KILL_WAIT_MS, 500);
    conf.setLong(YarnConfiguration.NM_LOG_RETAIN_SECONDS, 1);
    settings.accept(conf);
    yarn = addressedNodes ? new AddressedNodesMRCluster(name, nodeManagers) : new MiniMRYarnCluster(name, nodeManagers);
    yarn.init(conf);
    yarn.start();
    NodeManagerWorkers.awaitRegistered(master, yarn::getNodeManager, nodeManagers, Duration.ofSeconds(60));
  }

  /**
   * A cluster for tests: as {@link #MiniScacheYarnCluster(String, int, java.util.function.Consumer)}, with
   * heartbeats and the job client's polls every {@value #QUICK_HEARTBEAT_MS} ms instead of every second or
   * five, task and application master JVMs started with {@link #QUICK_JVM_OPTS} ({@link #jobConf}), and a job's
   * application master started while the one of the job before still waits out its end ({@link #AM_SHARE}).
   * Jobs run the same tasks and give the same output; they wait less between their steps.
   */
  public static MiniScacheYarnCluster forTests(String name, int nodeManagers,
      java.util.function.Consumer<Configuration> settings) throws Exception {
    return forTests(name, nodeManagers, settings, ScacheConf.empty());
  }

  /** As {@link #forTests(String, int, java.util.function.Consumer)}, the master set by {@code masterConf} too. */
  public static MiniScacheYarnCluster forTests(String name, int nodeManagers,
      java.util.function.Consumer<Configuration> settings, ScacheConf masterConf) throws Exception {
    MiniScacheYarnCluster cluster = new MiniScacheYarnCluster(name, nodeManagers, false, conf -> {
      conf.setInt(YarnConfiguration.RM_NM_HEARTBEAT_INTERVAL_MS, QUICK_HEARTBEAT_MS);
      conf.setFloat(AM_SHARE_KEY, AM_SHARE);
      settings.accept(conf);
    }, masterConf);
    cluster.quick = true;
    return cluster;
  }

  /** A job configuration for this cluster with small task containers. */
  public JobConf jobConf() {
    JobConf job = new JobConf(yarn.getConfig());
    job.setInt(MRJobConfig.MAP_MEMORY_MB, 384);
    job.setInt(MRJobConfig.REDUCE_MEMORY_MB, 384);
    job.set(MRJobConfig.MAP_JAVA_OPTS, "-Xmx256m");
    job.set(MRJobConfig.REDUCE_JAVA_OPTS, "-Xmx256m");
    job.setInt(MRJobConfig.MR_AM_VMEM_MB, 768);
    job.setInt(MRJobConfig.IO_SORT_MB, 32);
    if (quick) {
      job.set(MRJobConfig.MAP_JAVA_OPTS, "-Xmx256m " + QUICK_JVM_OPTS);
      job.set(MRJobConfig.REDUCE_JAVA_OPTS, "-Xmx256m " + QUICK_JVM_OPTS);
      job.set(MRJobConfig.MR_AM_COMMAND_OPTS, job.get(MRJobConfig.MR_AM_COMMAND_OPTS,
          MRJobConfig.DEFAULT_MR_AM_COMMAND_OPTS) + " " + QUICK_JVM_OPTS);
      job.setInt(MRJobConfig.MR_AM_TO_RM_HEARTBEAT_INTERVAL_MS, QUICK_HEARTBEAT_MS);
      job.setInt(org.apache.hadoop.mapreduce.Job.COMPLETION_POLL_INTERVAL_KEY, QUICK_HEARTBEAT_MS);
      job.setInt(org.apache.hadoop.mapreduce.Job.PROGRESS_MONITOR_POLL_INTERVAL_KEY, QUICK_HEARTBEAT_MS);
    }
    if (!ScacheJob.hadoopAddsJdk17Opens()) {
      // Hadoop 3.3 on JDK 17: what 3.4's NodeManager would add to every container's command line
      for (String key : new String[] {MRJobConfig.MAP_JAVA_OPTS, MRJobConfig.REDUCE_JAVA_OPTS,
          MRJobConfig.MR_AM_COMMAND_OPTS}) {
        job.set(key, job.get(key, key.equals(MRJobConfig.MR_AM_COMMAND_OPTS) ? MRJobConfig.DEFAULT_MR_AM_COMMAND_OPTS
            : "") + " " + JDK17_OPENS);
      }
    }
    return job;
  }

  /** The JDK 17 flags Hadoop 3.4 gives its containers ({@code mapreduce.jvm.add-opens-as-default}). */
  public static final String JDK17_OPENS = String.join(" ", java.util.stream.Stream.of("java.io", "java.lang",
      "java.lang.reflect", "java.math", "java.net", "java.nio", "java.text", "java.util", "java.util.concurrent",
      "java.util.zip", "sun.nio.ch", "sun.security.util", "sun.security.x509")
      .map(p -> "--add-opens=java.base/" + p + "=ALL-UNNAMED").toList());

  /** The counters of every SCache worker of the NodeManagers, summed. */
  public java.util.Map<String, Long> workerStats() {
    return NodeManagerWorkers.summedStats(master);
  }

  /** The counters of each SCache worker of the NodeManagers, by worker id. */
  public java.util.Map<String, java.util.Map<String, Long>> statsByWorker() {
    return NodeManagerWorkers.statsByWorker(master);
  }

  public ScacheMaster master() {
    return master;
  }

  /**
   * The placement of a shuffle, as the master answers a request signed with the cluster secret, the
   * way a worker asks for it.
   *
   * @throws ScacheException with the master's status while the shuffle is not placed, or when the
   *     master cannot be reached
   */
  public synchronized ShufflePlacement placement(String appId, int shuffleId) {
    if (masterConnections == null) {
      masterConnections = new ConnectionPool(TransportSettings.defaults(), "mini-cluster-master-client");
    }
    try {
      Optional<Credentials> cluster = Optional.of(Credentials.cluster(CLUSTER_SECRET.getBytes(StandardCharsets.UTF_8)));
      return masterConnections.get("127.0.0.1", master.port())
          .thenCompose(c -> c.call(new GetScheduleResult(appId, shuffleId), cluster, Duration.ofSeconds(30)))
          .join().as(ScheduleResult.class).placement();
    } catch (CompletionException e) {
      throw ScacheException.from(e);
    }
  }

  /** The Prometheus endpoint of the master and of every NodeManager's worker, master first. */
  public java.util.List<String> metricsUrls() {
    java.util.List<String> urls = new java.util.ArrayList<>();
    urls.add("http://127.0.0.1:" + master.httpPort().orElseThrow() + "/metrics");
    for (int i = 0; i < nodeManagers; i++) {
      ScacheAuxService service = NodeManagerWorkers.scacheService(yarn.getNodeManager(i));
      urls.add("http://127.0.0.1:" + service.worker().httpPort().orElseThrow() + "/metrics");
    }
    return urls;
  }

  public MiniMRYarnCluster yarn() {
    return yarn;
  }

  public Path workDir() {
    return workDir;
  }

  @Override
  public void close() {
    try {
      yarn.stop();
    } finally {
      synchronized (this) {
        if (masterConnections != null) {
          masterConnections.close();
        }
      }
      master.close();
    }
  }

  /** A MiniMRYarnCluster whose NodeManagers each have a loopback address of their own ({@link AddressedNodes}). */
  private static final class AddressedNodesMRCluster extends MiniMRYarnCluster {
    AddressedNodesMRCluster(String name, int nodeManagers) {
      super(name, nodeManagers);
    }

    @Override
    protected void addService(org.apache.hadoop.service.Service service) {
      AddressedNodes.address(this, service);
      super.addService(service);
    }
  }

  public static void deleteRecursively(Path p) throws IOException {
    if (!Files.exists(p)) {
      return;
    }
    try (Stream<Path> s = Files.walk(p)) {
      s.sorted(Comparator.reverseOrder()).forEach(x -> x.toFile().delete());
    }
  }
}
