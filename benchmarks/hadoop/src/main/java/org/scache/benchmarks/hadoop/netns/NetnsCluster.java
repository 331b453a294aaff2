package org.scache.benchmarks.hadoop.netns;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.scache.benchmarks.harness.netns.HostProcess;
import org.scache.benchmarks.harness.netns.LinkSampler;
import org.scache.benchmarks.harness.netns.LogFollower;
import org.scache.benchmarks.harness.netns.NodeNetwork;
import org.scache.hadoop.MiniScacheYarnCluster;

/**
 * A Hadoop cluster of separate daemons on this machine, one network namespace per host
 * ({@link NodeNetwork}): on the control host {@code ctl} the ResourceManager, the JobHistory server
 * and the SCache master; on each node host {@code node1..N} a NodeManager whose SCache worker is its
 * auxiliary service, loaded from the shaded adapter jar. Every daemon is a JVM of its own, started
 * from the built jars and configured through the {@code yarn-site.xml}, {@code mapred-site.xml} and
 * {@code core-site.xml} written for the run. Input and output are on the local file system, which all
 * hosts share.
 *
 * <p>The run directory holds {@code conf/} (the control host's and the job client's configuration),
 * {@code conf-nodeN/}, {@code cluster.properties} (what {@code ConfiguredCluster} reads), {@code logs/}
 * (one file per daemon; the containers' logs are under {@code nm-logs/}) and {@code data/}.
 */
public final class NetnsCluster implements AutoCloseable {
  static final int MASTER_PORT = 17010;
  static final int ZOOKEEPER_PORT = 2181;
  public static final int WORKER_PORT = 17020;
  static final int NODE_MANAGER_PORT = 45454;
  /** What each NodeManager offers to containers, as the mini cluster's {@code TerasortCluster}. */
  static final int NODE_MANAGER_MEMORY_MB = 2048;
  static final String SECRET = "netns-cluster-secret";
  private static final Duration START_TIMEOUT = Duration.ofSeconds(120);
  private static final String SPILL_DISKS = "spill-disks";
  private static final Pattern WORKER_REGISTERED = Pattern.compile("worker (\\S+) registered from");

  private final Path runDir;
  private final NodeNetwork network;
  private final ClassPaths classPaths;
  private final List<HostProcess> daemons = new ArrayList<>();
  private final Map<String, HostProcess> nodeManagers = new LinkedHashMap<>();
  private final int masterCount;
  private final Map<String, String> workerSettings;
  private final Map<String, String> jobSettings;
  private int restarts;
  private final List<HostProcess> masters = new ArrayList<>();
  private final SpillDisks spillDisks = new SpillDisks();
  private HostProcess resourceManager;

  private NetnsCluster(Path runDir, NodeNetwork network, ClassPaths classPaths, int masterCount,
      Map<String, String> workerSettings, Map<String, String> jobSettings) {
    this.runDir = runDir;
    this.network = network;
    this.classPaths = classPaths;
    this.masterCount = masterCount;
    this.workerSettings = Map.copyOf(workerSettings);
    this.jobSettings = Map.copyOf(jobSettings);
  }

  /**
   * Starts a cluster of {@code nodes} NodeManagers in {@code runDir} (emptied first) and waits until
   * every NodeManager has registered with the ResourceManager and every worker with the SCache master.
   * Each worker reserves {@code workerReserveBytes} for blocks.
   */
  public static NetnsCluster start(Path runDir, int nodes, long workerReserveBytes, ClassPaths classPaths)
      throws IOException, InterruptedException {
    return start(runDir, nodes, workerReserveBytes, classPaths, 1);
  }

  /**
   * As {@link #start(Path, int, long, ClassPaths)}, with {@code masters} SCache masters on the control host; with
   * more than one, a ZooKeeper server runs there too, the masters elect their leader through it, and workers and
   * clients find the leader there (docs/high-availability.md).
   */
  public static NetnsCluster start(Path runDir, int nodes, long workerReserveBytes, ClassPaths classPaths,
      int masters) throws IOException, InterruptedException {
    return start(runDir, nodes, workerReserveBytes, classPaths, masters, 0);
  }

  /**
   * As {@link #start(Path, int, long, ClassPaths, int)}; with {@code spillDiskBytes} above 0, each worker spills to a
   * disk of that size of its own (a tmpfs), which {@link #fillSpillDisk} can fill.
   */
  public static NetnsCluster start(Path runDir, int nodes, long workerReserveBytes, ClassPaths classPaths,
      int masters, long spillDiskBytes) throws IOException, InterruptedException {
    return start(runDir, nodes, workerReserveBytes, classPaths, masters, spillDiskBytes, Map.of());
  }

  /**
   * As {@link #start(Path, int, long, ClassPaths, int, long)}, with further {@code scache.*} settings for every worker,
   * written into the NodeManagers' yarn-site.xml after the cluster's own (which they may override).
   */
  public static NetnsCluster start(Path runDir, int nodes, long workerReserveBytes, ClassPaths classPaths,
      int masters, long spillDiskBytes, Map<String, String> workerSettings) throws IOException, InterruptedException {
    return start(runDir, nodes, workerReserveBytes, classPaths, masters, spillDiskBytes, workerSettings, Map.of());
  }

  /**
   * As {@link #start(Path, int, long, ClassPaths, int, long, Map)}, with {@code jobSettings} written into every
   * host's mapred-site.xml after the cluster's own: defaults of every job, on either shuffle, that a job's own
   * configuration may still override.
   */
  public static NetnsCluster start(Path runDir, int nodes, long workerReserveBytes, ClassPaths classPaths,
      int masters, long spillDiskBytes, Map<String, String> workerSettings, Map<String, String> jobSettings)
      throws IOException, InterruptedException {
    checkWorkerSettings(workerSettings);
    if (masters < 1 || masters > 3) {
      throw new IllegalArgumentException("1 to 3 masters, not " + masters);
    }
    SpillDisks.unmountLeftovers(runDir.toAbsolutePath().resolve(SPILL_DISKS));
    NodeNetwork network = NodeNetwork.forRun(runDir, nodes);
    NetnsCluster cluster = new NetnsCluster(runDir.toAbsolutePath(), network, classPaths, masters, workerSettings,
        jobSettings);
    try {
      if (spillDiskBytes > 0) {
        for (NodeNetwork.Host node : network.nodes()) {
          cluster.spillDisks.mount(cluster.runDir.resolve(SPILL_DISKS), node.name(), spillDiskBytes);
        }
      }
      cluster.writeConfiguration(workerReserveBytes);
      cluster.startDaemons();
    } catch (IOException | InterruptedException | RuntimeException e) {
      cluster.close();
      throw e;
    }
    return cluster;
  }

  /** Refuses settings for the workers that are not {@code scache.*} keys; returns them. */
  public static Map<String, String> checkWorkerSettings(Map<String, String> workerSettings) {
    for (String key : workerSettings.keySet()) {
      if (!key.startsWith("scache.")) {
        throw new IllegalArgumentException("a worker setting is an scache.* key, not " + key);
      }
    }
    return workerSettings;
  }

  public Path runDir() {
    return runDir;
  }

  NodeNetwork network() {
    return network;
  }

  List<NodeNetwork.Host> nodes() {
    return network.nodes();
  }

  // ---------------------------------------------------------------- configuration

  private Path confDir(NodeNetwork.Host host) {
    return host == network.control() ? runDir.resolve("conf") : runDir.resolve("conf-" + host.name());
  }

  private void writeConfiguration(long workerReserveBytes) throws IOException {
    NodeNetwork.Host ctl = network.control();
    String log4j = "log4j.rootLogger=INFO,console\n"
        + "log4j.appender.console=org.apache.log4j.ConsoleAppender\n"
        + "log4j.appender.console.layout=org.apache.log4j.PatternLayout\n"
        + "log4j.appender.console.layout.ConversionPattern=%d{ISO8601} %p %c{2}: %m%n\n"
        + "log4j.logger.org.apache.hadoop.util.NativeCodeLoader=ERROR\n";
    String hadoopJars = String.join(",", classPaths.hadoop().stream().map(Path::toString).toList());
    for (NodeNetwork.Host host : network.hosts()) {
      Path conf = confDir(host);
      Map<String, String> core = new LinkedHashMap<>();
      core.put("fs.defaultFS", "file:///");
      core.put("hadoop.tmp.dir", runDir.resolve("tmp").resolve(host.name()).toString());
      SiteFile.write(conf.resolve("core-site.xml"), core);

      Map<String, String> yarn = new LinkedHashMap<>();
      yarn.put("yarn.resourcemanager.hostname", ctl.name());
      yarn.put("yarn.resourcemanager.nodemanagers.heartbeat-interval-ms", "500");
      // a lost NodeManager is noticed in seconds, not minutes
      yarn.put("yarn.nm.liveness-monitor.expiry-interval-ms", "10000");
      yarn.put("yarn.resourcemanager.nm.liveness-monitor.interval-ms", "1000");
      // and an application master gives up cleaning a lost node's containers after 20 s, not 3 minutes:
      // until it does, the attempts that ran there are not run again
      yarn.put("yarn.client.nodemanager-connect.max-wait-ms", "20000");
      yarn.put("yarn.client.nodemanager-connect.retry-interval-ms", "2000");
      yarn.put("yarn.scheduler.minimum-allocation-mb", "256");
      yarn.put("yarn.scheduler.maximum-allocation-mb", Integer.toString(NODE_MANAGER_MEMORY_MB));
      yarn.put("yarn.nodemanager.resource.memory-mb", Integer.toString(NODE_MANAGER_MEMORY_MB));
      yarn.put("yarn.nodemanager.resource.cpu-vcores", "8");
      yarn.put("yarn.nodemanager.vmem-check-enabled", "false");
      yarn.put("yarn.nodemanager.pmem-check-enabled", "false");
      yarn.put("yarn.nodemanager.disk-health-checker.max-disk-utilization-per-disk-percentage", "99.5");
      yarn.put("yarn.nodemanager.address", host.name() + ":" + NODE_MANAGER_PORT);
      yarn.put("yarn.nodemanager.localizer.address", host.name() + ":8040");
      yarn.put("yarn.nodemanager.webapp.address", host.name() + ":8042");
      yarn.put("yarn.nodemanager.local-dirs", runDir.resolve("nm-local").resolve(host.name()).toString());
      yarn.put("yarn.nodemanager.log-dirs", runDir.resolve("nm-logs").resolve(host.name()).toString());
      yarn.put("yarn.nodemanager.log.retain-seconds", "86400");
      yarn.put("yarn.log-aggregation-enable", "false");
      yarn.put("yarn.nodemanager.sleep-delay-before-sigkill.ms", "100");
      yarn.put("yarn.nodemanager.process-kill-wait.ms", "500");
      yarn.put("yarn.nodemanager.recovery.enabled", "false");
      yarn.put("yarn.nodemanager.aux-services", "mapreduce_shuffle,scache");
      yarn.put("yarn.nodemanager.aux-services.mapreduce_shuffle.class", "org.apache.hadoop.mapred.ShuffleHandler");
      yarn.put("yarn.nodemanager.aux-services.scache.class", "org.scache.yarn.ScacheAuxService");
      // SCache as docs/deploy-yarn.md has it: the worker's host is its NodeManager's
      yarn.put("scache.worker.master.address", ctl.name() + ":" + MASTER_PORT);
      if (masterCount > 1) {
        yarn.put("scache.master.zookeeper.quorum", zooKeeperQuorum());
      }
      yarn.put("scache.worker.rpc.port", Integer.toString(WORKER_PORT));
      yarn.put("scache.worker.memory.reserve.bytes", Long.toString(workerReserveBytes));
      if (network.nodes().contains(host) && spillDisks.hasDisks()) {
        yarn.put("scache.worker.spill.dirs", spillDisks.of(host.name()).toString());
      }
      yarn.put("scache.security.cluster.secret", SECRET);
      yarn.putAll(workerSettings);
      yarn.put("yarn.application.classpath", "$HADOOP_CONF_DIR," + hadoopJars);
      SiteFile.write(conf.resolve("yarn-site.xml"), yarn);

      Map<String, String> mapred = new LinkedHashMap<>();
      mapred.put("mapreduce.framework.name", "yarn");
      mapred.put("yarn.app.mapreduce.am.staging-dir", runDir.resolve("staging").toString());
      mapred.put("mapreduce.jobhistory.address", ctl.name() + ":10020");
      mapred.put("mapreduce.jobhistory.webapp.address", ctl.name() + ":19888");
      mapred.put("mapreduce.jobhistory.admin.address", ctl.name() + ":10033");
      mapred.put("mapreduce.jobhistory.intermediate-done-dir", runDir.resolve("history/intermediate").toString());
      mapred.put("mapreduce.jobhistory.done-dir", runDir.resolve("history/done").toString());
      mapred.put("mapreduce.application.classpath", "$HADOOP_CONF_DIR," + hadoopJars);
      mapred.put("mapreduce.shuffle.port", "13562");
      mapred.put("yarn.app.mapreduce.am.resource.mb", "512");
      mapred.put("yarn.app.mapreduce.am.command-opts", "-Xmx320m");
      mapred.put("scache.client.master.address", ctl.name() + ":" + MASTER_PORT);
      if (masterCount > 1) {
        mapred.put("scache.master.zookeeper.quorum", zooKeeperQuorum());
      }
      mapred.put("scache.security.cluster.secret", SECRET);
      mapred.putAll(jobSettings);
      SiteFile.write(conf.resolve("mapred-site.xml"), mapred);
      Files.writeString(conf.resolve("log4j.properties"), log4j, StandardCharsets.UTF_8);
    }
    for (int i = 0; i < masterCount; i++) {
      String ha = masterCount == 1 ? "" : "scache.master.zookeeper.quorum=" + zooKeeperQuorum() + "\n"
          + "scache.master.advertised.host=" + ctl.name() + "\n";
      Files.writeString(masterProperties(i), "scache.master.bind.host=" + ctl.address() + "\n"
          + "scache.master.rpc.port=" + (MASTER_PORT + 2 * i) + "\n"
          + "scache.master.http.port=" + (MASTER_PORT + 2 * i + 1) + "\n"
          + ha
          + "scache.security.cluster.secret=" + SECRET + "\n", StandardCharsets.UTF_8);
    }
    Files.writeString(runDir.resolve("cluster.properties"), "nodemanagers=" + network.nodes().size() + "\n"
        + "data.dir=" + runDir.resolve("data") + "\n"
        + "scache.master=" + ctl.name() + ":" + MASTER_PORT + "\n"
        + (masterCount > 1 ? "scache.zookeeper=" + zooKeeperQuorum() + "\n" : "")
        + "scache.secret=" + SECRET + "\n", StandardCharsets.UTF_8);
  }

  private String zooKeeperQuorum() {
    return network.control().name() + ":" + ZOOKEEPER_PORT;
  }

  private Path masterProperties(int i) {
    return runDir.resolve(masterCount == 1 ? "master.properties" : "master-" + (i + 1) + ".properties");
  }

  // ---------------------------------------------------------------- daemons

  private HostProcess startJvm(String name, NodeNetwork.Host host, List<Path> classPath, String mainClass,
      List<String> args, String heap) throws IOException {
    return startJvm(name, host, classPath, mainClass, args, heap, List.of());
  }

  private HostProcess startJvm(String name, NodeNetwork.Host host, List<Path> classPath, String mainClass,
      List<String> args, String heap, List<String> extraOptions) throws IOException {
    List<Path> cp = new ArrayList<>();
    cp.add(confDir(host));
    cp.addAll(classPath);
    List<String> opts = new ArrayList<>(extraOptions);
    opts.addAll(List.of("-Xmx" + heap, "-Djava.net.preferIPv4Stack=true",
        "-Dhadoop.home.dir=" + runDir, "-Dhadoop.log.dir=" + runDir.resolve("logs"),
        "-Dyarn.log.dir=" + runDir.resolve("logs")));
    // the JDK 17 flags Hadoop 3.4 gives its containers, for every daemon's JVM
    opts.addAll(List.of(MiniScacheYarnCluster.JDK17_OPENS.split(" ")));
    Map<String, String> env = Map.of("JAVA_HOME", System.getProperty("java.home"),
        "HADOOP_CONF_DIR", confDir(host).toString());
    HostProcess p = HostProcess.start(name, host, opts, cp, mainClass, args, env,
        runDir.resolve("logs").resolve(name + ".log"));
    daemons.add(p);
    return p;
  }

  private void startDaemons() throws IOException, InterruptedException {
    NodeNetwork.Host ctl = network.control();
    if (masterCount > 1) {
      HostProcess zk = startJvm("zookeeper", ctl, classPaths.full(), "org.apache.zookeeper.server.ZooKeeperServerMain",
          List.of(Integer.toString(ZOOKEEPER_PORT), runDir.resolve("zookeeper").toString()), "256m",
          List.of("-Dzookeeper.admin.enableServer=false"));
      zk.awaitLog("its port", l -> l.contains("binding to port"), 1, START_TIMEOUT);
    }
    for (int i = 0; i < masterCount; i++) {
      masters.add(startMaster(i));
    }
    resourceManager = startJvm("resourcemanager", ctl, classPaths.hadoop(),
        "org.apache.hadoop.yarn.server.resourcemanager.ResourceManager", List.of(), "768m");
    HostProcess history = startJvm("historyserver", ctl, classPaths.hadoop(),
        "org.apache.hadoop.mapreduce.v2.hs.JobHistoryServer", List.of(), "384m");
    for (HostProcess m : masters) {
      m.awaitLog("listening", l -> l.contains("listening on"), 1, START_TIMEOUT);
    }
    resourceManager.awaitLog("its client port", l -> l.contains("IPC Server listener on 8032"), 1, START_TIMEOUT);
    for (NodeNetwork.Host node : network.nodes()) {
      nodeManagers.put(node.name(), startJvm("nodemanager-" + node.name(), node, classPaths.hadoop(),
          "org.apache.hadoop.yarn.server.nodemanager.NodeManager", List.of(), "768m"));
    }
    int n = network.nodes().size();
    resourceManager.awaitLog(n + " NodeManagers", l -> l.contains("registered with capability"), n, START_TIMEOUT);
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (registeredWorkers().size() < n) {
      if (System.nanoTime() > deadline || masters.stream().noneMatch(HostProcess::isAlive)) {
        throw new IOException("SCache workers registered: " + registeredWorkers() + " of " + n + "; see the "
            + "NodeManagers' logs in " + runDir.resolve("logs") + "; the first master's log ends with:\n"
            + masters.get(0).tail(20));
      }
      Thread.sleep(200);
    }
    history.awaitLog("its port", l -> l.contains("IPC Server listener on 10020"), 1, START_TIMEOUT);
  }

  private HostProcess startMaster(int i) throws IOException {
    String name = (masterCount == 1 ? "scache-master" : "scache-master-" + (i + 1)) + restartSuffix();
    return startJvm(name, network.control(), classPaths.full(), "org.scache.master.MasterMain",
        List.of("--conf", masterProperties(i).toString()), "512m");
  }

  /** Empty for a daemon's first start; a daemon started again logs to a file of its own. */
  private String restartSuffix() {
    return restarts == 0 ? "" : "-restart" + restarts;
  }

  /** The worker identities that have registered with a master so far. */
  Set<String> registeredWorkers() throws IOException {
    Set<String> ids = new TreeSet<>();
    for (HostProcess master : masters) {
      Path log = master.log();
      if (Files.exists(log)) {
        for (String line : Files.readAllLines(log, StandardCharsets.ISO_8859_1)) {
          Matcher m = WORKER_REGISTERED.matcher(line);
          if (m.find()) {
            ids.add(m.group(1));
          }
        }
      }
    }
    return ids;
  }

  /** The SCache masters on the control host. */
  public int masterCount() {
    return masterCount;
  }

  /**
   * The index of the master that leads now, as the masters' logs say (the last election line of each); -1 while
   * none does.
   */
  public int leadingMaster() throws IOException {
    for (int i = 0; i < masters.size(); i++) {
      HostProcess m = masters.get(i);
      if (!m.isAlive() || !Files.exists(m.log())) {
        continue;
      }
      String last = "";
      for (String line : Files.readAllLines(m.log(), StandardCharsets.ISO_8859_1)) {
        if (line.contains("MasterElection") && (line.endsWith(" leads")
            || line.contains("stands by") || line.contains("giving the leadership up"))) {
          last = line;
        }
      }
      if (last.endsWith(" leads")) {
        return i;
      }
    }
    return masterCount == 1 && masters.get(0).isAlive() ? 0 : -1;
  }

  /** Whether master {@code i}'s process runs. */
  public boolean masterAlive(int i) {
    return masters.get(i).isAlive();
  }

  /** Kills master {@code i} at once ({@code kill -9}), as a process or host that dies. */
  public void killMaster(int i) {
    masters.get(i).kill();
  }

  /** Starts master {@code i} again (logging to a new file); it stands by until elected. */
  public void restartMaster(int i) throws IOException {
    masters.get(i).stop(Duration.ofSeconds(5));
    daemons.remove(masters.get(i));
    restarts++;
    masters.set(i, startMaster(i));
  }

  /**
   * Runs {@code mainClass args} as the job client on the control host (the cluster's run directory
   * as its working directory's reference), and returns its exit code; its output goes to
   * {@code logs/<name>.log} and, line by line, to {@code echo}.
   */
  @SuppressWarnings("try") // the follower echoes the client's log while it is open, unreferenced
  public int runClient(String name, String mainClass, List<String> args, Duration timeout,
      java.util.function.Consumer<String> echo) throws IOException, InterruptedException {
    HostProcess client = startJvm(name, network.control(), classPaths.full(), mainClass, args, "1536m");
    try (LogFollower follower = new LogFollower(client.log(), echo)) {
      return client.waitFor(timeout);
    } finally {
      client.stop(Duration.ofSeconds(5));
      daemons.remove(client);
    }
  }

  /**
   * Starts {@code mainClass args} on the control host as another client of the cluster and returns at once; its
   * output goes to {@code logs/<name>.log}. {@link #stopClient} stops it (closing the cluster does too).
   */
  public HostProcess startClient(String name, String mainClass, List<String> args) throws IOException {
    return startJvm(name, network.control(), classPaths.full(), mainClass, args, "256m");
  }

  /** Waits up to {@code grace} for a client {@link #startClient} started to end, then kills it. */
  public void stopClient(HostProcess client, Duration grace) {
    client.stop(grace);
    daemons.remove(client);
  }

  /** Kills NodeManager {@code node} and every process of its host at once: the node is lost. */
  public void loseNode(String node) {
    HostProcess nm = nodeManagers.get(node);
    if (nm == null) {
      throw new IllegalArgumentException("no node " + node + "; nodes: " + nodeManagers.keySet());
    }
    network.nodes().stream().filter(h -> h.name().equals(node)).findFirst().ifPresent(network::killEverything);
    nm.kill();
  }

  /**
   * Starts node {@code node}'s NodeManager (and its SCache worker) again after {@link #loseNode}, and waits until it
   * has registered with the ResourceManager again.
   */
  public void restartNode(String node) throws IOException, InterruptedException {
    NodeNetwork.Host host = network.nodes().stream().filter(h -> h.name().equals(node)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no node " + node));
    HostProcess old = nodeManagers.get(node);
    old.stop(Duration.ofSeconds(5));
    daemons.remove(old);
    int before = countLines(resourceManager, "registered with capability");
    restarts++;
    nodeManagers.put(node, startJvm("nodemanager-" + node + restartSuffix(), host, classPaths.hadoop(),
        "org.apache.hadoop.yarn.server.nodemanager.NodeManager", List.of(), "768m"));
    resourceManager.awaitLog(node + " registered again", l -> l.contains("registered with capability"), before + 1,
        START_TIMEOUT);
  }

  /**
   * Kills node {@code node}'s NodeManager process ({@code kill -9}), so that its SCache worker and every block it
   * held are gone, and starts it again at once; the node's containers keep running.
   */
  public void restartNodeManager(String node) throws IOException, InterruptedException {
    HostProcess nm = nodeManagers.get(node);
    if (nm == null) {
      throw new IllegalArgumentException("no node " + node + "; nodes: " + nodeManagers.keySet());
    }
    nm.kill();
    restartNode(node);
  }

  private static int countLines(HostProcess p, String text) throws IOException {
    if (!Files.exists(p.log())) {
      return 0;
    }
    return (int) Files.readAllLines(p.log(), StandardCharsets.ISO_8859_1).stream().filter(l -> l.contains(text))
        .count();
  }

  /** Cuts node {@code node}'s link for {@code cut}, then puts it back. */
  public void cutLink(String node, Duration cut) throws IOException, InterruptedException {
    NodeNetwork.Host host = network.nodes().stream().filter(h -> h.name().equals(node)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no node " + node));
    network.setLinkUp(host, false);
    try {
      Thread.sleep(cut.toMillis());
    } finally {
      network.setLinkUp(host, true);
    }
  }

  /**
   * Fills every free byte of node {@code node}'s spill disk (the cluster must have been started with spill disks of
   * their own); returns the bytes written. {@link #freeSpillDisk} deletes them.
   */
  public long fillSpillDisk(String node) throws IOException {
    return spillDisks.fill(node);
  }

  /** Frees what {@link #fillSpillDisk} wrote on {@code node}'s spill disk. */
  public void freeSpillDisk(String node) throws IOException {
    spillDisks.free(node);
  }

  /** Lines of node {@code node}'s NodeManager log (its worker's included) that contain {@code text}. */
  public int nodeManagerLogLines(String node, String text) throws IOException {
    HostProcess nm = nodeManagers.get(node);
    if (nm == null) {
      throw new IllegalArgumentException("no node " + node + "; nodes: " + nodeManagers.keySet());
    }
    return countLines(nm, text);
  }

  /** The node hosts' names. */
  public List<String> nodeNames() {
    return network.nodes().stream().map(NodeNetwork.Host::name).toList();
  }

  /** Starts reading every node's link counters every {@code periodMs}; close it to stop. */
  public LinkSampler sampleLinks(long periodMs) {
    return new LinkSampler(network, periodMs);
  }

  /** Limits every node's link to {@code mbit} Mbit/s each way (0: unlimited). */
  public void shapeNodeLinks(int mbit) throws IOException {
    for (NodeNetwork.Host node : network.nodes()) {
      network.shape(node, mbit, 0);
    }
  }

  @Override
  public void close() {
    List<HostProcess> reverse = new ArrayList<>(daemons);
    java.util.Collections.reverse(reverse);
    for (HostProcess p : reverse) {
      p.stop(Duration.ofSeconds(10));
    }
    network.close();
    spillDisks.close();
  }
}
