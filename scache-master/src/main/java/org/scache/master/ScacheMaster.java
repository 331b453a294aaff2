package org.scache.master;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
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
import org.scache.metrics.HttpEndpoint;
import org.scache.metrics.Reading;
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
  private final Optional<HttpEndpoint> http;

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
    ShuffleRegistry shuffles = new ShuffleRegistry(budget);
    ScacheServer[] listening = new ScacheServer[1];
    MasterMetrics metrics = new MasterMetrics().withGauges(() -> List.of(
        Reading.gauge("scache_master_workers_live", "Workers whose heartbeats arrive.", workers.live().size()),
        Reading.gauge("scache_master_applications", "Applications registered.", applications.size()),
        Reading.gauge("scache_master_shuffles", "Shuffles the master tracks.", shuffles.size()),
        Reading.gauge("scache_master_connections_open", "Connections open to the master.",
            listening[0] == null ? 0 : listening[0].openConnections())));
    this.requests = new MasterRequests(workers, applications, shuffles, coScheduler,
        new IncompleteRounds(), notifier, heartbeatMillis, clock, metrics);
    MasterRequestHandler handler = new MasterRequestHandler(requests, applications, clusterSecret);
    this.server = ScacheServer.start("scache-master", conf.get(ScacheOptions.MASTER_BIND_HOST),
        conf.get(ScacheOptions.MASTER_PORT), transport, () -> handler, metrics.requests());
    listening[0] = server;
    this.http = HttpEndpoint.start("scache-master", conf.get(ScacheOptions.MASTER_HTTP_BIND_HOST),
        conf.get(ScacheOptions.MASTER_HTTP_PORT),
        StatusRoutes.of(new StatusViews(workers, applications, shuffles, clock), metrics));
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

  /** The port of the status page and metrics, if served. */
  public java.util.OptionalInt httpPort() {
    return http.map(h -> java.util.OptionalInt.of(h.port())).orElse(java.util.OptionalInt.empty());
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
    http.ifPresent(HttpEndpoint::close);
    housekeeping.shutdownNow();
    server.close();
    notifier.close();
    applications.close();
    LOG.info("master stopped");
  }
}
