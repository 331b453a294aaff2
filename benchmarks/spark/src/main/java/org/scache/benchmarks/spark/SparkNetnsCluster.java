package org.scache.benchmarks.spark;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.scache.benchmarks.harness.ByteSize;
import org.scache.benchmarks.harness.netns.HostProcess;
import org.scache.benchmarks.harness.netns.LinkSampler;
import org.scache.benchmarks.harness.netns.LogFollower;
import org.scache.benchmarks.harness.netns.NodeNetwork;

/**
 * A Spark standalone cluster of separate daemons on this machine, one network namespace per host: on
 * the control host {@code ctl} the Spark master, the SCache master and the applications' drivers; on
 * each node host {@code node1..N} a Spark worker (which starts its executors there) and an SCache worker
 * ({@code bin/scache-worker}'s main class), as {@code docs/deploy-spark.md} has a standalone cluster.
 *
 * <p>Spark runs from a {@code SPARK_HOME} the run assembles: {@code jars/} links to the jars of the
 * Spark version this module builds against, and {@code conf/} holds the log configuration. The shaded
 * adapter goes on the applications' extra class paths, as an operator's {@code spark-defaults.conf} puts it.
 * The run directory holds {@code spark-home/}, {@code logs/} (one file per daemon and driver; the
 * executors' logs are under {@code work/}), {@code spill/} and {@code data/}.
 */
final class SparkNetnsCluster implements AutoCloseable {
  static final int SCACHE_MASTER_PORT = 17010;
  static final int SCACHE_WORKER_PORT = 17020;
  static final int SPARK_MASTER_PORT = 7077;
  static final String SECRET = "spark-netns-cluster-secret";
  private static final Duration START_TIMEOUT = Duration.ofSeconds(120);

  /**
   * What each node offers: Spark task slots and executor memory, and the SCache worker's reserve; and
   * the JVM options the SCache workers get besides their own (a JFR recording, for example), and those the
   * applications' drivers get (a GC log, for example), and the drivers' heap.
   */
  record NodeShape(int cores, int executorMemoryMb, long scacheReserveBytes, List<String> scacheJavaOptions,
      String tcpCongestionControl, List<String> driverJavaOptions, String driverHeap) {
    /** The options a benchmark's command line sets the cluster with, and their defaults. */
    static void defaults(Map<String, String> o) {
      o.put("nodes", "3");
      o.put("cores", "2");
      o.put("executor-memory-mb", "1024");
      o.put("reserve", "768m");
      // JVM options for the SCache master and workers, for example a JFR recording (-XX:StartFlightRecording=...)
      // or settings as system properties (-Dscache.worker.fetch.receive.buffer.bytes=64k)
      o.put("scache-java-opts", "");
      // JVM options for the applications' drivers besides their heap, for example a GC log (-Xlog:gc:file=...)
      o.put("driver-java-opts", "");
      // the drivers' heap: TPC-DS q35 builds broadcasts that a 1 GiB driver could not always hold, on either shuffle
      o.put("driver-memory", "2g");
      // settings for every application, key=value separated by spaces, for example spark.locality.wait=10s
      o.put("spark-conf-opts", "");
      // the hosts' TCP congestion control (cubic, bbr, ...); empty: the machine's
      o.put("tcp", "");
    }

    /** The shape the options of {@link #defaults} give. */
    static NodeShape of(Map<String, String> o) {
      return new NodeShape(Integer.parseInt(o.get("cores")), Integer.parseInt(o.get("executor-memory-mb")),
          ByteSize.parse(o.get("reserve")), words(o.get("scache-java-opts")), o.get("tcp").trim(),
          words(o.get("driver-java-opts")), o.get("driver-memory").trim());
    }

    private static List<String> words(String options) {
      return options.isBlank() ? List.of() : List.of(options.trim().split("\\s+"));
    }
  }

  private final Path runDir;
  private final NodeNetwork network;
  private final SparkClassPaths classPaths;
  private final NodeShape shape;
  private final List<HostProcess> daemons = new ArrayList<>();

  private SparkNetnsCluster(Path runDir, NodeNetwork network, SparkClassPaths classPaths, NodeShape shape) {
    this.runDir = runDir;
    this.network = network;
    this.classPaths = classPaths;
    this.shape = shape;
  }

  /**
   * Starts a cluster of {@code nodes} node hosts in {@code runDir} (emptied first) and waits until every
   * Spark worker has registered with the Spark master and every SCache worker with the SCache master.
   */
  static SparkNetnsCluster start(Path runDir, int nodes, NodeShape shape, SparkClassPaths classPaths)
      throws IOException, InterruptedException {
    NodeNetwork network = NodeNetwork.forRun(runDir, nodes);
    SparkNetnsCluster cluster = new SparkNetnsCluster(runDir.toAbsolutePath(), network, classPaths, shape);
    try {
      if (!shape.tcpCongestionControl().isEmpty()) {
        network.congestionControl(shape.tcpCongestionControl());
      }
      cluster.writeSparkHome();
      cluster.startDaemons();
    } catch (IOException | InterruptedException | RuntimeException e) {
      cluster.close();
      throw e;
    }
    return cluster;
  }

  Path runDir() {
    return runDir;
  }

  NodeShape shape() {
    return shape;
  }

  List<String> nodeNames() {
    return network.nodes().stream().map(NodeNetwork.Host::name).toList();
  }

  String sparkMasterUrl() {
    return "spark://" + network.control().name() + ":" + SPARK_MASTER_PORT;
  }

  String scacheMasterAddress() {
    return network.control().name() + ":" + SCACHE_MASTER_PORT;
  }

  SparkClassPaths classPaths() {
    return classPaths;
  }

  /** The Scala version Spark's jars on this class path were built for (2.12 for Spark 3.5, 2.13 for Spark 4). */
  private static String scalaBinaryVersion() {
    String full = scala.util.Properties.versionNumberString();
    return full.substring(0, full.lastIndexOf('.'));
  }

  private Path sparkHome() {
    return runDir.resolve("spark-home");
  }

  private Path log4j() {
    return sparkHome().resolve("conf").resolve("log4j2.properties");
  }

  private void writeSparkHome() throws IOException {
    Path jars = Files.createDirectories(sparkHome().resolve("jars"));
    for (Path jar : classPaths.spark()) {
      if (Files.isRegularFile(jar)) {
        Path link = jars.resolve(jar.getFileName());
        if (!Files.exists(link)) {
          Files.createSymbolicLink(link, jar);
        }
      }
    }
    Files.createDirectories(log4j().getParent());
    Files.writeString(log4j(), String.join("\n",
        "rootLogger.level = info",
        "rootLogger.appenderRef.stdout.ref = console",
        "appender.console.type = Console",
        "appender.console.name = console",
        "appender.console.target = SYSTEM_ERR",
        "appender.console.layout.type = PatternLayout",
        "appender.console.layout.pattern = %d{yy/MM/dd HH:mm:ss.SSS} %p %c{1}: %m%n",
        "logger.jetty.name = org.sparkproject.jetty",
        "logger.jetty.level = warn",
        "logger.netty.name = io.netty",
        "logger.netty.level = warn", ""), StandardCharsets.UTF_8);
    Files.writeString(runDir.resolve("scache-master.properties"), String.join("\n",
        "scache.master.bind.host=" + network.control().address(),
        "scache.master.rpc.port=" + SCACHE_MASTER_PORT,
        "scache.security.cluster.secret=" + SECRET, ""), StandardCharsets.UTF_8);
    for (NodeNetwork.Host node : network.nodes()) {
      Files.writeString(runDir.resolve("scache-worker-" + node.name() + ".properties"), String.join("\n",
          "scache.worker.master.address=" + scacheMasterAddress(),
          "scache.worker.bind.host=" + node.address(),
          "scache.worker.advertised.host=" + node.name(),
          "scache.worker.rpc.port=" + SCACHE_WORKER_PORT,
          "scache.worker.memory.reserve.bytes=" + shape.scacheReserveBytes(),
          "scache.worker.spill.dirs=" + runDir.resolve("spill").resolve(node.name()),
          "scache.security.cluster.secret=" + SECRET, ""), StandardCharsets.UTF_8);
    }
  }

  private HostProcess startJvm(String name, NodeNetwork.Host host, List<Path> classPath, String mainClass,
      List<String> args, String heap) throws IOException {
    return startJvm(name, host, classPath, mainClass, args, heap, List.of());
  }

  private HostProcess startJvm(String name, NodeNetwork.Host host, List<Path> classPath, String mainClass,
      List<String> args, String heap, List<String> extraOptions) throws IOException {
    List<Path> cp = new ArrayList<>();
    cp.add(log4j().getParent());
    cp.addAll(classPath);
    List<String> opts = new ArrayList<>(List.of("-Xmx" + heap, "-Djava.net.preferIPv4Stack=true",
        "-Dlog4j2.configurationFile=" + log4j()));
    opts.addAll(SparkJavaOptions.JAVA_OPENS);
    opts.addAll(extraOptions);
    Map<String, String> env = Map.of("JAVA_HOME", System.getProperty("java.home"),
        "SPARK_HOME", sparkHome().toString(),
        "SPARK_CONF_DIR", log4j().getParent().toString(),
        "SPARK_SCALA_VERSION", scalaBinaryVersion(),
        "SPARK_LOCAL_IP", host.address());
    HostProcess p = HostProcess.start(name, host, opts, cp, mainClass, args, env,
        runDir.resolve("logs").resolve(name + ".log"));
    daemons.add(p);
    return p;
  }

  private void startDaemons() throws IOException, InterruptedException {
    NodeNetwork.Host ctl = network.control();
    HostProcess scacheMaster = startJvm("scache-master", ctl, classPaths.full(), "org.scache.master.MasterMain",
        List.of("--conf", runDir.resolve("scache-master.properties").toString()), "512m", shape.scacheJavaOptions());
    HostProcess sparkMaster = startJvm("spark-master", ctl, classPaths.spark(),
        "org.apache.spark.deploy.master.Master", List.of("--host", ctl.name(), "--port",
            Integer.toString(SPARK_MASTER_PORT), "--webui-port", "8080"), "384m");
    scacheMaster.awaitLog("listening", l -> l.contains("listening on"), 1, START_TIMEOUT);
    sparkMaster.awaitLog("its port", l -> l.contains("Starting Spark master at"), 1, START_TIMEOUT);
    for (NodeNetwork.Host node : network.nodes()) {
      startJvm("scache-worker-" + node.name(), node, classPaths.full(), "org.scache.worker.WorkerMain",
          List.of("--conf", runDir.resolve("scache-worker-" + node.name() + ".properties").toString()), "384m",
          shape.scacheJavaOptions());
      startJvm("spark-worker-" + node.name(), node, classPaths.spark(), "org.apache.spark.deploy.worker.Worker",
          List.of("--host", node.name(), "--cores", Integer.toString(shape.cores()), "--memory",
              (shape.executorMemoryMb() + 64) + "m", "--work-dir", runDir.resolve("work").resolve(node.name())
                  .toString(), sparkMasterUrl()), "256m");
    }
    int n = network.nodes().size();
    sparkMaster.awaitLog(n + " Spark workers", l -> l.contains("Registering worker"), n, START_TIMEOUT);
    scacheMaster.awaitLog(n + " SCache workers", l -> l.contains("registered from"), n, START_TIMEOUT);
  }

  /**
   * Runs {@code mainClass args} as an application's driver on the control host, with the driver's class
   * path, and returns its exit code; its output goes to {@code logs/<name>.log} and, line by line, to
   * {@code echo}.
   */
  @SuppressWarnings("try") // the follower echoes the driver's log while it is open, unreferenced
  int runDriver(String name, String mainClass, List<String> args, Duration timeout, Consumer<String> echo)
      throws IOException, InterruptedException {
    HostProcess driver = startJvm(name, network.control(), classPaths.driver(), mainClass, args,
        shape.driverHeap(), shape.driverJavaOptions());
    try (LogFollower follower = new LogFollower(driver.log(), echo)) {
      return driver.waitFor(timeout);
    } finally {
      driver.stop(Duration.ofSeconds(5));
      daemons.remove(driver);
    }
  }

  /** Starts reading every node's link counters every {@code periodMs}; close it to stop. */
  LinkSampler sampleLinks(long periodMs) {
    return new LinkSampler(network, periodMs);
  }

  /** Limits every node's link to {@code mbit} Mbit/s each way (0: unlimited). */
  void shapeNodeLinks(int mbit) throws IOException {
    for (NodeNetwork.Host node : network.nodes()) {
      network.shape(node, mbit, 0);
    }
  }

  @Override
  public void close() {
    List<HostProcess> reverse = new ArrayList<>(daemons);
    Collections.reverse(reverse);
    for (HostProcess p : reverse) {
      p.stop(Duration.ofSeconds(10));
    }
    network.close();
  }
}
