package org.scache.master;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.scache.common.Clock;
import org.scache.common.DaemonThreads;
import org.scache.common.ScacheException;
import org.scache.common.WorkerInfo;
import org.scache.common.auth.Credentials;
import org.scache.common.auth.RequestAuthorizer;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import org.scache.common.ha.LeaderPaths;
import org.scache.common.network.ConnectionPool;
import org.scache.common.network.ScacheServer;
import org.scache.common.network.TransportSettings;
import org.scache.common.protocol.Message;
import org.scache.common.protocol.Status;
import org.scache.metrics.HttpEndpoint;
import org.scache.metrics.HttpLimits;
import org.scache.metrics.Reading;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The SCache master daemon: serves requests on its port, and its status page and metrics, over the
 * state of its current {@link MasterTerm}, and expires workers that stop sending heartbeats. Alone
 * (no ZooKeeper) it leads from its start to its end. With {@code scache.master.zookeeper.quorum} it
 * takes part in an election ({@link MasterElection}): it begins a term, from the state kept in
 * ZooKeeper, each time it is elected, and answers NOT_LEADER while it stands by.
 */
public final class ScacheMaster implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ScacheMaster.class);

  private final ScacheConf conf;
  private final Clock clock;
  private final WorkerNotifier notifier;
  private final MasterMetrics metrics;
  private final ScheduledExecutorService housekeeping;
  private final ScacheServer server;
  private final Optional<HttpEndpoint> http;
  private final Optional<CuratorFramework> zk;
  private final Optional<MasterElection> election;
  private final Optional<ZooKeeperState> kept;
  private volatile MasterTerm term;

  private ScacheMaster(ScacheConf conf, Clock clock) throws InterruptedException {
    this.conf = conf;
    this.clock = clock;
    String secret = conf.get(ScacheOptions.SECURITY_CLUSTER_SECRET);
    if (secret.isEmpty()) {
      throw new IllegalArgumentException(ScacheOptions.SECURITY_CLUSTER_SECRET.key()
          + " must be set to the same secret on the master and every worker");
    }
    byte[] clusterSecret = secret.getBytes(StandardCharsets.UTF_8);
    String quorum = conf.get(ScacheOptions.MASTER_ZOOKEEPER_QUORUM);
    String dir = conf.get(ScacheOptions.MASTER_STATE_DIR);
    Optional<Path> stateDir = dir.isEmpty() || !quorum.isEmpty() ? Optional.empty() : Optional.of(Path.of(dir));
    if (quorum.isEmpty() && dir.isEmpty()) {
      LOG.warn("{} is not set: applications and their secrets are not kept across a restart of this master, and "
          + "after one an application id belongs to whoever registers it first", ScacheOptions.MASTER_STATE_DIR.key());
    }
    TransportSettings transport = TransportSettings.from(conf);
    this.notifier = new ClusterWorkerNotifier(new ConnectionPool(transport, "scache-master-client"),
        Credentials.cluster(clusterSecret));
    ScacheServer[] listening = new ScacheServer[1];
    this.metrics = new MasterMetrics().withGauges(() -> {
      MasterTerm t = term;
      return List.of(
          Reading.gauge("scache_master_leader", "1 while this master leads, 0 while it stands by.", t == null ? 0 : 1),
          Reading.gauge("scache_master_workers_live", "Workers whose heartbeats arrive.",
              t == null ? 0 : t.workers.live().size()),
          Reading.gauge("scache_master_applications", "Applications registered.",
              t == null ? 0 : t.applications.size()),
          Reading.gauge("scache_master_shuffles", "Shuffles the master tracks.", t == null ? 0 : t.shuffles.size()),
          Reading.gauge("scache_master_connections_open", "Connections open to the master.",
              listening[0] == null ? 0 : listening[0].openConnections()));
    });
    MasterRequestHandler handler = new MasterRequestHandler(this::leadingTerm);
    RequestAuthorizer authorizer = new RequestAuthorizer(clusterSecret, new TermSecrets(this::leadingTerm), () -> { });
    this.server = ScacheServer.start("scache-master", conf.get(ScacheOptions.MASTER_BIND_HOST),
        conf.get(ScacheOptions.MASTER_PORT), transport, authorizer, () -> handler, metrics.requests());
    listening[0] = server;
    long heartbeatMillis = conf.get(ScacheOptions.MASTER_HEARTBEAT_INTERVAL).toMillis();
    this.housekeeping = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("scache-master-housekeeping"));
    housekeeping.scheduleWithFixedDelay(() -> leadingTerm().ifPresent(t -> t.requests.expireWorkers()),
        heartbeatMillis, heartbeatMillis, TimeUnit.MILLISECONDS);
    if (quorum.isEmpty()) {
      this.zk = Optional.empty();
      this.election = Optional.empty();
      this.kept = Optional.empty();
      StateLimits limits = StateLimits.from(conf);
      SkippedRecords skipped = new SkippedRecords(metrics::stateRecordsSkipped);
      this.term = MasterTerm.begin(conf, clock, stateDir.map(d -> ApplicationJournal.open(d, limits, skipped)),
          stateDir.<ShuffleStore>map(d -> new DirectoryShuffleStore(d, limits, skipped)).orElse(ShuffleStore.NONE),
          notifier, metrics, skipped);
      stateDir.ifPresent(d -> LOG.info("{} applications read back from {}", term.applications.size(), d));
    } else {
      LeaderPaths paths = new LeaderPaths(conf.get(ScacheOptions.MASTER_ZOOKEEPER_ROOT));
      try {
        this.zk = Optional.of(zooKeeper(conf, quorum, paths, clusterSecret));
      } catch (RuntimeException e) {
        housekeeping.shutdownNow();
        server.close();
        notifier.close();
        throw e;
      }
      this.kept = Optional.of(new ZooKeeperState(zk.get(), paths.state()));
      this.election = Optional.of(new MasterElection(zk.get(), paths, advertisedAddress(conf, server.port()),
          clusterSecret, new MasterElection.Roles() {
            @Override
            public void lead() {
              beginTerm();
            }

            @Override
            public void standBy() {
              endTerm();
            }
          }));
    }
    this.http = HttpEndpoint.start("scache-master", conf.get(ScacheOptions.MASTER_HTTP_BIND_HOST),
        conf.get(ScacheOptions.MASTER_HTTP_PORT), HttpLimits.from(conf),
        StatusRoutes.of(this::statusViews, this::role, metrics));
    if (election.isPresent()) {
      try {
        election.get().start();
      } catch (Exception e) {
        close();
        throw new IllegalStateException("cannot take part in the master election at " + quorum, e);
      }
    }
    LOG.info("master serving on port {}{}", server.port(), election.isPresent() ? " (standing by until elected)" : "");
  }

  public static ScacheMaster start(ScacheConf conf) throws InterruptedException {
    return new ScacheMaster(conf, Clock.SYSTEM);
  }

  public static ScacheMaster start(ScacheConf conf, Clock clock) throws InterruptedException {
    return new ScacheMaster(conf, clock);
  }

  /**
   * The masters' ZooKeeper client: authenticated as their {@link ZooKeeperIdentity}, creating every node
   * with the {@link ClusterAcl}, and with the cluster's nodes claimed ({@link ClusterRoot}) before it is
   * used; a master that cannot claim them does not start.
   */
  private static CuratorFramework zooKeeper(ScacheConf conf, String quorum, LeaderPaths paths, byte[] clusterSecret) {
    int session = (int) conf.get(ScacheOptions.MASTER_ZOOKEEPER_SESSION_TIMEOUT).toMillis();
    ZooKeeperIdentity identity = ZooKeeperIdentity.of(conf, clusterSecret);
    ClusterAcl acl = new ClusterAcl(paths, identity);
    CuratorFramework client = CuratorFrameworkFactory.builder().connectString(quorum)
        .sessionTimeoutMs(session).connectionTimeoutMs((int) conf.get(ScacheOptions.NETWORK_CONNECT_TIMEOUT).toMillis())
        .retryPolicy(new ExponentialBackoffRetry(200, 5, 2000))
        .authorization("digest", identity.authBytes()).aclProvider(acl).build();
    client.start();
    try {
      new ClusterRoot(client, paths, acl, identity).claim();
    } catch (IllegalStateException | IllegalArgumentException e) {
      client.close();
      throw e;
    } catch (Exception e) {
      client.close();
      throw new IllegalStateException("cannot secure this cluster's nodes in ZooKeeper at " + quorum + paths
          + " before taking part in the master election: " + e, e);
    }
    return client;
  }

  /** host:port under which this master is published when it leads. */
  static String advertisedAddress(ScacheConf conf, int port) {
    String configured = conf.get(ScacheOptions.MASTER_ADVERTISED_HOST);
    if (!configured.isEmpty()) {
      return configured + ":" + port;
    }
    try {
      return InetAddress.getLocalHost().getCanonicalHostName() + ":" + port;
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("this machine's host name does not resolve; set "
          + ScacheOptions.MASTER_ADVERTISED_HOST.key(), e);
    }
  }

  private synchronized void beginTerm() {
    endTerm();
    term = MasterTerm.begin(conf, clock, kept, kept.<ShuffleStore>map(k -> k).orElse(ShuffleStore.NONE), notifier,
        metrics, new SkippedRecords(metrics::stateRecordsSkipped));
  }

  private synchronized void endTerm() {
    MasterTerm t = term;
    term = null;
    if (t != null) {
      t.end();
    }
  }

  /** The current term while this master leads (and its election, if any, still says so). */
  private Optional<MasterTerm> leadingTerm() {
    MasterTerm t = term;
    // term is written after election, so a term seen here has its election
    if (t == null || election.map(e -> !e.holdsLeadership()).orElse(false)) {
      return Optional.empty();
    }
    return Optional.of(t);
  }

  private Optional<StatusViews> statusViews() {
    return leadingTerm().map(t -> t.views);
  }

  /** What this master is: the only one, the leader, or a standby (and who leads). */
  public String role() {
    if (election.isEmpty()) {
      return "single master";
    }
    if (leadingTerm().isPresent() && election.get().leads()) {
      return "leader";
    }
    String leader = election.get().leaderAddress();
    return leader.isEmpty() ? "standby (no master leads yet)" : "standby (the leader is " + leader + ")";
  }

  /** Whether this master serves requests now: it is the only one, or the elected leader that took over. */
  public boolean isLeader() {
    return election.isEmpty() || (leadingTerm().isPresent() && election.get().leads());
  }

  public int port() {
    return server.port();
  }

  /** The port of the status page and metrics, if served. */
  public OptionalInt httpPort() {
    return http.map(h -> OptionalInt.of(h.port())).orElse(OptionalInt.empty());
  }

  /** Workers currently alive, by id; none while this master stands by. */
  public List<WorkerInfo> liveWorkers() {
    return leadingTerm().map(t -> t.workers.live()).orElse(List.of());
  }

  /**
   * Serves a request as if it had arrived authorized, in this JVM: the code the network handler runs
   * once the request is let through. For the tests and the ingest benchmark of this package; everything
   * else goes through a connection.
   */
  /** Requests to this master from its own JVM, served as authorized requests from the network are. */
  public InProcessRequests inProcess() {
    return new InProcessRequests(this);
  }

  Message serveAuthorized(Message m) {
    return leadingTerm().orElseThrow(() -> new ScacheException(Status.NOT_LEADER, "this master does not lead"))
        .requests.serve(m);
  }

  @Override
  public void close() {
    http.ifPresent(HttpEndpoint::close);
    election.ifPresent(MasterElection::close);
    housekeeping.shutdownNow();
    server.close();
    notifier.close();
    endTerm();
    zk.ifPresent(CuratorFramework::close);
    LOG.info("master stopped");
  }
}
