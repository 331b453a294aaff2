package org.scache.benchmarks.hadoop;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.scache.client.ScacheClient;
import org.scache.common.WorkerInfo;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;

/**
 * A running cluster of separate daemons, as its directory describes it: {@code cluster.properties}
 * ({@value #NODE_MANAGERS}, {@value #DATA_DIR}, {@value #MASTER}, {@value #SECRET}) and the client's
 * {@code conf/core-site.xml}, {@code yarn-site.xml} and {@code mapred-site.xml}. Closing it leaves the
 * cluster running; whoever started it stops it.
 */
public final class ConfiguredCluster implements SortCluster {
  static final String PROPERTIES = "cluster.properties";
  static final String NODE_MANAGERS = "nodemanagers";
  static final String DATA_DIR = "data.dir";
  static final String MASTER = "scache.master";
  /** The ZooKeeper ensemble the masters elect their leader through, when they are several; optional. */
  static final String ZOOKEEPER = "scache.zookeeper";
  static final String SECRET = "scache.secret";

  private final Path confDir;
  private final int nodeManagers;
  private final Path dataDir;
  private final String master;
  private final String secret;
  private final String zooKeeper;

  private ConfiguredCluster(Path confDir, int nodeManagers, Path dataDir, String master, String secret,
      String zooKeeper) {
    this.confDir = confDir;
    this.nodeManagers = nodeManagers;
    this.dataDir = dataDir;
    this.master = master;
    this.secret = secret;
    this.zooKeeper = zooKeeper;
  }

  public static ConfiguredCluster open(Path dir) {
    Path file = dir.resolve(PROPERTIES);
    Properties p = new Properties();
    try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      p.load(r);
    } catch (IOException e) {
      throw new IllegalArgumentException("no cluster at " + dir + ": cannot read " + file + ": " + e.getMessage(), e);
    }
    for (String key : List.of(NODE_MANAGERS, DATA_DIR, MASTER, SECRET)) {
      if (p.getProperty(key, "").isBlank()) {
        throw new IllegalArgumentException(file + " has no " + key);
      }
    }
    return new ConfiguredCluster(dir.resolve("conf"), Integer.parseInt(p.getProperty(NODE_MANAGERS).trim()),
        Path.of(p.getProperty(DATA_DIR).trim()), p.getProperty(MASTER).trim(), p.getProperty(SECRET).trim(),
        p.getProperty(ZOOKEEPER, "").trim());
  }

  @Override
  public int nodeManagers() {
    return nodeManagers;
  }

  @Override
  public JobConf jobConf() {
    JobConf job = new JobConf(new YarnConfiguration());
    for (String site : List.of("core-site.xml", "yarn-site.xml", "mapred-site.xml")) {
      job.addResource(new org.apache.hadoop.fs.Path(confDir.resolve(site).toUri()));
    }
    return TerasortCluster.forTerasort(job);
  }

  @Override
  public Path dir() {
    return dataDir;
  }

  /** The NodeManagers' log directories ({@code nm-logs/} next to {@code conf/}). */
  @Override
  public Path containerLogs() {
    return confDir.getParent().resolve("nm-logs");
  }

  @Override
  public List<String> workers() {
    try (ScacheClient c = client(null)) {
      return c.workers().stream().map(WorkerInfo::address).sorted().collect(Collectors.toList());
    }
  }

  @Override
  public Map<String, Long> workerStats() {
    Map<String, Long> sum = new TreeMap<>();
    for (String worker : workers()) {
      try (ScacheClient c = client(worker)) {
        c.workerStats().forEach((k, v) -> sum.merge(k, v, Long::sum));
      }
    }
    return sum;
  }

  private ScacheClient client(String worker) {
    return ScacheClient.create(scacheConf(worker), "stats-reader", "unused".getBytes(StandardCharsets.UTF_8));
  }

  /** How a client of this cluster finds its master (or the leader) and, unless null, {@code worker}. */
  public ScacheConf scacheConf(String worker) {
    ScacheConf conf = ScacheConf.empty().with(ScacheOptions.CLIENT_MASTER_ADDRESS, master)
        .with(ScacheOptions.SECURITY_CLUSTER_SECRET, secret);
    if (!zooKeeper.isEmpty()) {
      conf = conf.with(ScacheOptions.MASTER_ZOOKEEPER_QUORUM, zooKeeper);
    }
    if (worker != null) {
      conf = conf.with(ScacheOptions.CLIENT_WORKER_ADDRESS, worker);
    }
    return conf;
  }

  @Override
  public void close() {}
}
