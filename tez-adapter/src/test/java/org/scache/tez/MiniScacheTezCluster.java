package org.scache.tez;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.ShuffleHandler;
import org.apache.hadoop.service.Service;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.tez.client.TezClient;
import org.apache.tez.dag.api.DAG;
import org.apache.tez.dag.api.TezConfiguration;
import org.apache.tez.dag.api.client.DAGClient;
import org.apache.tez.dag.api.client.DAGStatus;
import org.apache.tez.dag.api.client.StatusGetOpts;
import org.apache.tez.dag.library.vertexmanager.ShuffleVertexManager;
import org.apache.tez.test.MiniTezCluster;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import org.scache.hadoop.MiniScacheYarnCluster;
import org.scache.hadoop.NodeManagerWorkers;
import org.scache.master.ScacheMaster;
import org.scache.yarn.ScacheAuxService;

/**
 * An in-process SCache master and a MiniTezCluster whose NodeManagers run Tez's shuffle handler and
 * the SCache auxiliary service (loaded by class name, as yarn-site.xml does; docs/deploy-tez.md),
 * each with its own worker. Each NodeManager has an address of its own
 * ({@link AddressedNodesTezCluster}), so location hints for a worker's host are hints for one node.
 */
final class MiniScacheTezCluster implements AutoCloseable {
  static final String CLUSTER_SECRET = "mini-cluster-secret";

  private final ScacheMaster master;
  private final MiniTezCluster tez;
  private final Path workDir;
  /** Where the MiniYARNCluster keeps its NodeManagers' local and log directories. */
  private final Path yarnDir;

  MiniScacheTezCluster(String name, int nodeManagers) throws Exception {
    this(name, nodeManagers, 1);
  }

  /** A cluster whose NodeManagers keep a finished application's container logs for {@code logRetainSeconds}. */
  MiniScacheTezCluster(String name, int nodeManagers, long logRetainSeconds) throws Exception {
    this(name, nodeManagers, logRetainSeconds, conf -> { });
  }

  /** As {@link #MiniScacheTezCluster(String, int, long)}, the NodeManagers (and their workers) set by {@code nms}. */
  MiniScacheTezCluster(String name, int nodeManagers, long logRetainSeconds,
      java.util.function.Consumer<Configuration> nms) throws Exception {
    workDir = Path.of("target", name).toAbsolutePath();
    deleteRecursively(workDir);
    yarnDir = Path.of("target", "test", "data", name).toAbsolutePath();
    deleteRecursively(yarnDir);
    Files.createDirectories(workDir);
    master = ScacheMaster.start(ScacheConf.empty()
        .with(ScacheOptions.SECURITY_CLUSTER_SECRET, CLUSTER_SECRET)
        .with(ScacheOptions.MASTER_BIND_HOST, "127.0.0.1")
        .with(ScacheOptions.MASTER_PORT, 0)
        .with(ScacheOptions.MASTER_HEARTBEAT_INTERVAL.key(), "200ms")
        .with(ScacheOptions.MASTER_WORKER_EXPIRY.key(), "5s"));
    Configuration conf = new Configuration();
    conf.setStrings(YarnConfiguration.NM_AUX_SERVICES, ShuffleHandler.MAPREDUCE_SHUFFLE_SERVICEID,
        ScacheAuxService.NAME);
    conf.setClass(String.format(YarnConfiguration.NM_AUX_SERVICE_FMT, ShuffleHandler.MAPREDUCE_SHUFFLE_SERVICEID),
        ShuffleHandler.class, Service.class);
    conf.setInt(ShuffleHandler.SHUFFLE_PORT_CONFIG_KEY, 0);
    conf.set(String.format(YarnConfiguration.NM_AUX_SERVICE_FMT, ScacheAuxService.NAME),
        ScacheAuxService.class.getName());
    // what docs/deploy-tez.md puts in yarn-site.xml; port 0 because the NodeManagers share this machine. The
    // worker listens on and advertises its NodeManager's address
    conf.set(ScacheOptions.SECURITY_CLUSTER_SECRET.key(), CLUSTER_SECRET);
    conf.set(ScacheOptions.WORKER_MASTER_ADDRESS.key(), "127.0.0.1:" + master.port());
    conf.setInt(ScacheOptions.WORKER_PORT.key(), 0);
    conf.set(ScacheOptions.WORKER_MEMORY_RESERVE.key(), "256m");
    conf.set(ScacheOptions.WORKER_MEMORY_SEGMENT.key(), "64m");
    conf.setInt("yarn.minicluster.yarn.nodemanager.resource.memory-mb", 3072);
    conf.setInt(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, 256);
    // fast NodeManager shutdown
    conf.setLong(YarnConfiguration.NM_SLEEP_DELAY_BEFORE_SIGKILL_MS, 100);
    conf.setLong(YarnConfiguration.NM_PROCESS_KILL_WAIT_MS, 500);
    conf.setLong(YarnConfiguration.NM_LOG_RETAIN_SECONDS, logRetainSeconds);
    // containers are handed out at NodeManager heartbeats: every 200 ms rather than every second
    conf.setInt(YarnConfiguration.RM_NM_HEARTBEAT_INTERVAL_MS, 200);
    // a DAG's application master starts while the one of the DAG before waits out its end
    conf.setFloat(MiniScacheYarnCluster.AM_SHARE_KEY, MiniScacheYarnCluster.AM_SHARE);
    nms.accept(conf);
    tez = new AddressedNodesTezCluster(name, nodeManagers);
    tez.init(conf);
    tez.start();
    NodeManagerWorkers.awaitRegistered(master, tez::getNodeManager, nodeManagers, Duration.ofSeconds(60));
  }

  /** A Tez configuration for this cluster: small containers, the Java 17 opens, the SCache master. */
  TezConfiguration tezConf() {
    TezConfiguration conf = new TezConfiguration(tez.getConfig());
    conf.set(TezConfiguration.TEZ_AM_STAGING_DIR, workDir.resolve("staging").toString());
    conf.setInt(TezConfiguration.TEZ_AM_RESOURCE_MEMORY_MB, 512);
    conf.setInt(TezConfiguration.TEZ_TASK_RESOURCE_MEMORY_MB, 512);
    // without the opens Tez 0.10.5's application master dies in its web UI setup on Java 17 and the client waits
    // forever; the client compiler alone and the serial collector, since on two cores a short-lived JVM's C2
    // compilations take the cores its DAG's other JVMs wait for
    String opens = " --add-opens=java.base/java.lang=ALL-UNNAMED " + MiniScacheYarnCluster.QUICK_JVM_OPTS;
    conf.set(TezConfiguration.TEZ_AM_LAUNCH_CMD_OPTS, conf.get(TezConfiguration.TEZ_AM_LAUNCH_CMD_OPTS, "") + opens);
    conf.set(TezConfiguration.TEZ_TASK_LAUNCH_CMD_OPTS, conf.get(TezConfiguration.TEZ_TASK_LAUNCH_CMD_OPTS, "")
        + opens);
    conf.set(ScacheOptions.CLIENT_MASTER_ADDRESS.key(), "127.0.0.1:" + master.port());
    conf.setInt(TezConfiguration.TEZ_AM_RM_HEARTBEAT_INTERVAL_MS_MAX, 250);
    // as docs/deploy-tez.md advises: a held container runs only tasks that want its node
    conf.setBoolean(TezConfiguration.TEZ_AM_CONTAINER_REUSE_RACK_FALLBACK_ENABLED, false);
    // idle containers stay held long enough for the consumers that are placed into them
    conf.setLong(TezConfiguration.TEZ_AM_CONTAINER_IDLE_RELEASE_TIMEOUT_MIN_MILLIS, 20_000);
    conf.setLong(TezConfiguration.TEZ_AM_CONTAINER_IDLE_RELEASE_TIMEOUT_MAX_MILLIS, 30_000);
    return conf;
  }

  /**
   * What a DAG client's tez-site.xml says: {@link #tezConf()}, every consumer started once all its producers ended,
   * and with {@code switched} the two keys of docs/deploy-tez.md.
   */
  TezConfiguration clientConf(boolean switched) {
    TezConfiguration conf = tezConf();
    conf.setFloat(ShuffleVertexManager.TEZ_SHUFFLE_VERTEX_MANAGER_MIN_SRC_FRACTION, 1.0f);
    conf.setFloat(ShuffleVertexManager.TEZ_SHUFFLE_VERTEX_MANAGER_MAX_SRC_FRACTION, 1.0f);
    // the mini cluster runs one application master at a time: each leaves as soon as its client has the final
    // status, rather than after Tez's default 5 s
    conf.setLong(TezConfiguration.TEZ_AM_SLEEP_TIME_BEFORE_EXIT_MILLIS, 500);
    if (switched) {
      conf.set(TezConfiguration.TEZ_AM_DAG_SCHEDULER_CLASS, ScacheDagScheduler.class.getName());
      conf.setBoolean(TezScacheOptions.ENABLED.key(), true);
    }
    return conf;
  }

  /** The counters of every SCache worker of the NodeManagers, summed. */
  Map<String, Long> workerStats() {
    return NodeManagerWorkers.summedStats(master);
  }

  /** The counters of each SCache worker of the NodeManagers, by worker id. */
  Map<String, Map<String, Long>> statsByWorker() {
    return NodeManagerWorkers.statsByWorker(master);
  }

  ScacheMaster master() {
    return master;
  }

  Path workDir() {
    return workDir;
  }

  /**
   * Writes {@code files} text files of {@code lines} lines of {@code wordsPerLine} words drawn from a vocabulary of
   * {@code vocabulary} ({@code seed} fixes them) into a new directory {@code name} of the work directory.
   */
  Path writeWords(String name, int files, int lines, int vocabulary, int wordsPerLine, long seed) throws IOException {
    Path dir = workDir().resolve(name);
    Files.createDirectories(dir);
    Random rnd = new Random(seed);
    for (int f = 0; f < files; f++) {
      try (BufferedWriter w = Files.newBufferedWriter(dir.resolve("part-" + f + ".txt"))) {
        for (int line = 0; line < lines; line++) {
          for (int i = 0; i < wordsPerLine; i++) {
            if (i > 0) {
              w.write(' ');
            }
            w.write("w" + rnd.nextInt(vocabulary));
          }
          w.newLine();
        }
      }
    }
    return dir;
  }

  /**
   * Runs {@code dag} in an application of its own, as its program's driver does (the mini cluster starts one
   * application master at a time); its final status with its counters, which must be SUCCEEDED.
   */
  DAGStatus run(TezConfiguration conf, DAG dag) throws Exception {
    TezClient client = TezClient.create(dag.getName(), conf, false);
    client.start();
    try {
      DAGClient dagClient = client.submitDAG(dag);
      // the final status with its counters, from the application master before it leaves
      DAGStatus status = dagClient.waitForCompletionWithStatusUpdates(EnumSet.of(StatusGetOpts.GET_COUNTERS));
      assertEquals(DAGStatus.State.SUCCEEDED, status.getState(), dag.getName() + ": " + status.getDiagnostics());
      return status;
    } finally {
      client.stop();
    }
  }

  /** The lines with {@code marker} of every container's syslog (application masters' included). */
  List<String> containerLogLines(String marker) throws IOException {
    List<String> out = new ArrayList<>();
    for (Path f : ClusterLogFiles.named(yarnDir, "syslog")) {
      for (String line : ClusterLogFiles.lines(f)) {
        if (line.contains(marker)) {
          out.add(line);
        }
      }
    }
    return out;
  }

  /** Every line of the part files of an output directory, sorted (reducers with equal keys write in any order). */
  static List<String> sortedLines(String dir) throws IOException {
    List<String> lines = new ArrayList<>();
    try (Stream<Path> s = Files.list(Path.of(dir))) {
      for (Path p : (Iterable<Path>) s::iterator) {
        if (p.getFileName().toString().startsWith("part-")) {
          lines.addAll(Files.readAllLines(p, StandardCharsets.UTF_8));
        }
      }
    }
    lines.sort(null);
    return lines;
  }

  /** The directory that holds the containers' logs while the cluster runs. */
  Path yarnDir() {
    return yarnDir;
  }

  @Override
  public void close() {
    try {
      tez.stop();
    } finally {
      master.close();
    }
  }

  static void deleteRecursively(Path p) throws IOException {
    if (!Files.exists(p)) {
      return;
    }
    try (Stream<Path> s = Files.walk(p)) {
      s.sorted(Comparator.reverseOrder()).forEach(x -> x.toFile().delete());
    }
  }
}
