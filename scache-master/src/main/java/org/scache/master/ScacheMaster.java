package org.scache.master;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.scache.common.Clock;
import org.scache.common.DaemonThreads;
import org.scache.common.WorkerInfo;
import org.scache.common.auth.Credentials;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import org.scache.common.network.ConnectionPool;
import org.scache.common.network.ScacheServer;
import org.scache.common.network.TransportSettings;
import org.scache.common.protocol.Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The SCache master daemon: builds the master's state and its request handling from the
 * configuration, serves them on its port, and expires workers that stop sending heartbeats.
 */
public final class ScacheMaster implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ScacheMaster.class);

  private final WorkerRegistry workers;
  private final MasterRequests requests;
  private final WorkerNotifier notifier;
  private final ScheduledExecutorService housekeeping;
  private final ScacheServer server;
  private final ApplicationRegistry applications;

  private ScacheMaster(ScacheConf conf, Clock clock) throws InterruptedException {
    String secret = conf.get(ScacheOptions.SECURITY_CLUSTER_SECRET);
    if (secret.isEmpty()) {
      throw new IllegalArgumentException(ScacheOptions.SECURITY_CLUSTER_SECRET.key()
          + " must be set to the same secret on the master and every worker");
    }
    byte[] clusterSecret = secret.getBytes(StandardCharsets.UTF_8);
    this.workers = new WorkerRegistry(clock, conf.get(ScacheOptions.MASTER_WORKER_EXPIRY));
    String stateDir = conf.get(ScacheOptions.MASTER_STATE_DIR);
    if (stateDir.isEmpty()) {
      LOG.warn("{} is not set: applications and their secrets are not kept across a restart of this master, and "
          + "after one an application id belongs to whoever registers it first", ScacheOptions.MASTER_STATE_DIR.key());
    }
    this.applications = new ApplicationRegistry(clock, conf.get(ScacheOptions.MASTER_TOMBSTONE_TTL),
        stateDir.isEmpty() ? java.util.Optional.empty() : java.util.Optional.of(java.nio.file.Path.of(stateDir)));
    if (!stateDir.isEmpty()) {
      LOG.info("{} applications read back from {}", applications.size(), stateDir);
    }
    long heartbeatMillis = conf.get(ScacheOptions.MASTER_HEARTBEAT_INTERVAL).toMillis();
    CoScheduler coScheduler = new CoScheduler(conf.get(ScacheOptions.MASTER_SCHEDULE_OBSERVATION_THRESHOLD),
        conf.get(ScacheOptions.MASTER_SCHEDULE_SLOTS_PER_WORKER), clock);
    TransportSettings transport = TransportSettings.from(conf);
    this.notifier = new ClusterWorkerNotifier(new ConnectionPool(transport, "scache-master-client"),
        Credentials.cluster(clusterSecret));
    ShuffleBudget budget = ShuffleBudget.of(conf.get(ScacheOptions.MASTER_SHUFFLE_STATE_MAX),
        conf.get(ScacheOptions.MASTER_SHUFFLE_STATE_APPLICATION_SHARE), Runtime.getRuntime().maxMemory());
    this.requests = new MasterRequests(workers, applications, new ShuffleRegistry(budget), coScheduler,
        new IncompleteRounds(), notifier, heartbeatMillis);
    MasterRequestHandler handler = new MasterRequestHandler(requests, applications, clusterSecret);
    this.server = ScacheServer.start("scache-master", conf.get(ScacheOptions.MASTER_BIND_HOST),
        conf.get(ScacheOptions.MASTER_PORT), transport, () -> handler);
    this.housekeeping = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("scache-master-housekeeping"));
    housekeeping.scheduleWithFixedDelay(requests::expireWorkers, heartbeatMillis, heartbeatMillis,
        TimeUnit.MILLISECONDS);
    LOG.info("master serving on port {}", server.port());
  }

  public static ScacheMaster start(ScacheConf conf) throws InterruptedException {
    return new ScacheMaster(conf, Clock.SYSTEM);
  }

  public static ScacheMaster start(ScacheConf conf, Clock clock) throws InterruptedException {
    return new ScacheMaster(conf, clock);
  }

  public int port() {
    return server.port();
  }

  /** Workers currently alive, by id. */
  public List<WorkerInfo> liveWorkers() {
    return workers.live();
  }

  /**
   * Serves a daemon or application request that was already authenticated, in this JVM: the same
   * code the network handler runs, for embedding the master and for benchmarks of its handling.
   */
  public Message handleTrusted(Message m) {
    return requests.serve(m);
  }

  @Override
  public void close() {
    housekeeping.shutdownNow();
    server.close();
    notifier.close();
    applications.close();
    LOG.info("master stopped");
  }
}
