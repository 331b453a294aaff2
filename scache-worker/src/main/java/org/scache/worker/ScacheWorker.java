package org.scache.worker;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.scache.common.BlockId;
import org.scache.common.Clock;
import org.scache.common.DaemonThreads;
import org.scache.common.WorkerInfo;
import org.scache.common.auth.Credentials;
import org.scache.common.auth.RequestAuthorizer;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import org.scache.common.ha.Locator;
import org.scache.common.network.ConnectionPool;
import org.scache.common.network.ScacheServer;
import org.scache.common.network.TransportSettings;
import org.scache.metrics.HttpEndpoint;
import org.scache.metrics.HttpLimits;
import org.scache.metrics.PrometheusRoute;
import org.scache.worker.cluster.NetworkPeerFetches;
import org.scache.worker.cluster.PeerFetches;
import org.scache.worker.cluster.PeerReceiveBuffer;
import org.scache.worker.counters.WorkerCounters;
import org.scache.worker.local.LeaseQuota;
import org.scache.worker.local.LocalLeases;
import org.scache.worker.master.ApplicationVouching;
import org.scache.worker.master.MasterCalls;
import org.scache.worker.master.MasterLink;
import org.scache.worker.master.MasterMessages;
import org.scache.worker.prefetch.Prefetcher;
import org.scache.worker.requests.AppSecrets;
import org.scache.worker.requests.ApplicationShuffles;
import org.scache.worker.requests.BlockReader;
import org.scache.worker.requests.InFlightPuts;
import org.scache.worker.requests.LocalAccess;
import org.scache.worker.requests.ReduceInputLocator;
import org.scache.worker.requests.WorkerRequestHandler;
import org.scache.worker.spill.SpillPolicy;
import org.scache.worker.spill.SpillStore;
import org.scache.worker.store.BlockQuota;
import org.scache.worker.store.BlockStore;
import org.scache.worker.store.MemoryPool;
import org.scache.worker.store.PlacementBook;
import org.scache.worker.store.WorkerStorage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An SCache worker: a reserved block store, the server that takes puts and serves reads and
 * fetches, and the link to the master. Runs as its own daemon ({@link WorkerMain}) or embedded,
 * for example in a YARN NodeManager.
 */
public final class ScacheWorker implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ScacheWorker.class);

  private final MemoryPool pool;
  private final WorkerStorage storage;
  private final WorkerCounters counters = new WorkerCounters();
  /** The one clock the worker's parts time and order things by. */
  private final Clock clock = Clock.SYSTEM;
  private final ConnectionPool connections;
  private final PeerReceiveBuffer receiveBuffer;
  private final MasterCalls masterCalls;
  private final AppSecrets secrets;
  private final ApplicationVouching vouching;
  private final ScacheServer server;
  private final WorkerInfo info;
  private final MasterLink masterLink;
  private final ApplicationShuffles applications;
  private final ScheduledExecutorService timers;
  private final WorkerStats stats;
  private final WorkerMetrics metrics = new WorkerMetrics(this::stats);
  private final Optional<HttpEndpoint> http;

  /**
   * Builds the worker's parts around its bound port, then serves: the server's socket is bound first,
   * so that the parts know the worker's address, and accepts connections only once they all exist.
   */
  private ScacheWorker(ScacheConf conf) throws IOException, InterruptedException {
    // what is opened here is closed again, last first, when the worker cannot start
    Deque<AutoCloseable> opened = new ArrayDeque<>();
    try {
      byte[] clusterSecret = clusterSecret(conf);
      TransportSettings transport = TransportSettings.from(conf);
      long reserve = conf.get(ScacheOptions.WORKER_MEMORY_RESERVE);
      Path memoryDir = memoryDir(conf.get(ScacheOptions.WORKER_MEMORY_DIR), reserve);
      String configuredId = conf.get(ScacheOptions.WORKER_ID);
      String tag = configuredId.isEmpty() ? "worker" : configuredId;
      pool = opened(opened, new MemoryPool(memoryDir, tag, reserve,
          Math.min(conf.get(ScacheOptions.WORKER_MEMORY_SEGMENT), Integer.MAX_VALUE - MemoryPool.ALIGNMENT),
          conf.get(ScacheOptions.WORKER_MEMORY_PRETOUCH), conf.get(ScacheOptions.WORKER_LOCAL_SHM_ENABLED)));
      PlacementBook placements = new PlacementBook();
      SpillPolicy spillPolicy = SpillPolicy.named(conf.get(ScacheOptions.WORKER_SPILL_POLICY));
      storage = opened(opened, new WorkerStorage(pool, spillStore(conf, tag), spillPolicy, placements, clock,
          counters, Math.max(1, conf.get(ScacheOptions.WORKER_SPILL_READ_BUFFER)),
          BlockQuota.of(conf.get(ScacheOptions.WORKER_BLOCKS_MAX),
              conf.get(ScacheOptions.WORKER_BLOCKS_APPLICATION_SHARE), Runtime.getRuntime().maxMemory(),
              this::ownerOf, spillPolicy)));
      BlockStore store = storage.store();
      Credentials cluster = Credentials.cluster(clusterSecret);
      // the same connections carry the master's answers and other workers' blocks: only the blocks fill a window
      receiveBuffer = new PeerReceiveBuffer(conf.get(ScacheOptions.WORKER_FETCH_RECEIVE_BUFFER),
          conf.get(ScacheOptions.WORKER_NETWORK_LINK_MBIT));
      connections = opened(opened, new ConnectionPool(transport, "scache-worker-client", receiveBuffer));
      Duration fetchTimeout = conf.get(ScacheOptions.WORKER_FETCH_TIMEOUT);
      masterCalls = opened(opened, new MasterCalls(Locator.master(conf, ScacheOptions.WORKER_MASTER_ADDRESS),
          connections, cluster, fetchTimeout));
      secrets = AppSecrets.withUsers(masterCalls::fetchApplication);
      RequestAuthorizer authorizer = new RequestAuthorizer(clusterSecret, secrets, counters.authFailures::increment);
      server = opened(opened, ScacheServer.bind("scache-worker", conf.get(ScacheOptions.WORKER_BIND_HOST),
          conf.get(ScacheOptions.WORKER_PORT), transport));
      String host = conf.get(ScacheOptions.WORKER_ADVERTISED_HOST);
      if (host.isEmpty()) {
        host = InetAddress.getLocalHost().getCanonicalHostName();
      }
      info = new WorkerInfo(configuredId.isEmpty() ? host + ":" + server.port() : configuredId, host, server.port());
      timers = Executors.newSingleThreadScheduledExecutor(
          DaemonThreads.named("scache-worker-timers-" + info.workerId()));
      opened.push(timers::shutdownNow);
      vouching = new ApplicationVouching(masterCalls, timers);
      PeerFetches holders = new NetworkPeerFetches(connections, cluster, fetchTimeout);
      Prefetcher prefetcher = new Prefetcher(store, storage.copies(), masterCalls, holders, placements, info,
          counters, timers, new Prefetcher.Limits(conf.get(ScacheOptions.WORKER_PREFETCH_ENABLED),
              Math.max(1, conf.get(ScacheOptions.WORKER_PREFETCH_MAX_INFLIGHT)),
              Math.max(1, conf.get(ScacheOptions.WORKER_PREFETCH_MAX_INFLIGHT_PER_WORKER)),
              Math.max(1, Math.min(conf.get(ScacheOptions.WORKER_PREFETCH_BATCH), Integer.MAX_VALUE)),
              conf.get(ScacheOptions.WORKER_PREFETCH_BANDWIDTH)), clock);
      masterLink = opened(opened, new MasterLink(masterCalls, info, storage,
          conf.get(ScacheOptions.WORKER_REPORT_BATCH), conf.get(ScacheOptions.WORKER_REPORT_INTERVAL),
          this::removeApplication, counters.activity));
      masterLink.timeRoundTrips(clock, receiveBuffer::roundTrip);
      storage.reportTo(masterLink);
      masterLink.onRegistered(vouching::announceAgain);
      BlockReader reader = new BlockReader(store, storage.reads(), masterCalls, holders, info, fetchTimeout, counters,
          new ReduceInputLocator(masterCalls, timers, clock, conf.get(ScacheOptions.WORKER_REDUCE_INPUT_WAIT)),
          placements, prefetcher);
      applications = new ApplicationShuffles(store, prefetcher, masterLink, secrets, counters);
      stats = new WorkerStats(counters, storage, prefetcher, server, receiveBuffer);
      LeaseQuota leaseQuota = LeaseQuota.of(reserve, conf.get(ScacheOptions.WORKER_LOCAL_LEASE_APPLICATION_SHARE),
          conf.get(ScacheOptions.WORKER_LOCAL_LEASES_PER_CONNECTION_MAX), secrets::ownerOf);
      Duration leaseTimeout = conf.get(ScacheOptions.WORKER_LOCAL_LEASE_TIMEOUT);
      WorkerRequestHandler.Parts parts = new WorkerRequestHandler.Parts(storage.puts(), reader,
          new MasterMessages(store, prefetcher), applications, counters,
          conf.get(ScacheOptions.SECURITY_PAYLOAD_DIGEST), stats::snapshot,
          () -> new LocalAccess(authorizer, new LocalLeases(pool, store, storage.puts(), counters, info.workerId(),
              leaseQuota, clock), leaseTimeout),
          InFlightPuts.of(reserve, conf.get(ScacheOptions.WORKER_PUT_INFLIGHT_APPLICATION_SHARE),
              conf.get(ScacheOptions.WORKER_PUT_INFLIGHT_CONNECTION_MAX),
              conf.get(ScacheOptions.WORKER_PUT_STALL_TIMEOUT), clock, secrets::ownerOf));
      server.serve(authorizer, () -> new WorkerRequestHandler(parts), metrics.requests());
      masterLink.start();
      http = HttpEndpoint.start("scache-worker", conf.get(ScacheOptions.WORKER_HTTP_BIND_HOST),
          conf.get(ScacheOptions.WORKER_HTTP_PORT), HttpLimits.from(conf),
          Map.of("/metrics", new PrometheusRoute(metrics.registry())));
      LOG.info("worker {} serving on {} with {} bytes reserved", info.workerId(), info.address(), reserve);
    } catch (IOException | InterruptedException | RuntimeException e) {
      closeAll(opened, e);
      throw e;
    }
  }

  /** {@code part}, to be closed with the others if the worker cannot start. */
  private static <T extends AutoCloseable> T opened(Deque<AutoCloseable> opened, T part) {
    opened.push(part);
    return part;
  }

  private static void closeAll(Deque<AutoCloseable> opened, Exception failure) {
    for (AutoCloseable part : opened) {
      try {
        part.close();
      } catch (Exception e) {
        failure.addSuppressed(e);
      }
    }
  }

  /** Starts a worker with {@code conf}; it registers with its master in the background. */
  public static ScacheWorker start(ScacheConf conf) throws IOException, InterruptedException {
    return new ScacheWorker(conf);
  }

  public WorkerInfo info() {
    return info;
  }

  /** Whether the master has accepted this worker's registration. */
  public boolean isRegistered() {
    return masterLink.isRegistered();
  }

  /** Makes an application's secret known here without asking the master (used when embedded). */
  public void registerApplication(String appId, byte[] secret) {
    secrets.register(appId, secret);
  }

  /**
   * The cluster vouches for an application that starts on this node: its user, and its secret when the node
   * knows it (else empty). The master is told ({@code scache.security.applications.vouched}), and this worker
   * counts the application's quotas against its user.
   */
  public void vouchApplication(String appId, String user, byte[] secret) {
    if (secret.length > 0) {
      secrets.register(appId, secret);
    }
    if (!user.isEmpty()) {
      secrets.knowUser(appId, user);
      vouching.vouch(appId, user, secret);
    }
  }

  /** Frees every block of the application and forgets its secret. */
  public void removeApplication(String appId) {
    vouching.forget(appId);
    applications.removeApplication(appId);
  }

  /** Who the quotas of {@code appId} are counted against here: its user when known, else itself. */
  private String ownerOf(String appId) {
    return secrets.ownerOf(appId);
  }

  /** The port of the worker's metrics endpoint, if it serves one. */
  public java.util.OptionalInt httpPort() {
    return http.map(h -> java.util.OptionalInt.of(h.port())).orElse(java.util.OptionalInt.empty());
  }

  /** Whether this worker's store holds block {@code id}, in memory or spilled; asks no other worker. */
  public boolean holds(BlockId id) {
    return storage.store().contains(id);
  }

  /** Counters and gauges as served by {@code GET_WORKER_STATS}, described by {@link WorkerStatsCatalog}. */
  public Map<String, Long> stats() {
    return stats.snapshot();
  }

  @Override
  public void close() {
    http.ifPresent(HttpEndpoint::close);
    masterLink.close();
    masterCalls.close();
    timers.shutdownNow();
    server.close();
    connections.close();
    storage.close();
    pool.close();
    LOG.info("worker {} stopped", info.workerId());
  }

  static byte[] clusterSecret(ScacheConf conf) {
    String s = conf.get(ScacheOptions.SECURITY_CLUSTER_SECRET);
    if (s.isEmpty()) {
      throw new IllegalArgumentException(ScacheOptions.SECURITY_CLUSTER_SECRET.key()
          + " must be set to the same secret on the master and every worker");
    }
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** The spill store the configuration asks for, if spilling is on. */
  private static java.util.Optional<SpillStore> spillStore(ScacheConf conf, String tag) throws IOException {
    if (!conf.get(ScacheOptions.WORKER_SPILL_ENABLED)) {
      return java.util.Optional.empty();
    }
    java.util.List<Path> dirs = new java.util.ArrayList<>();
    for (String d : conf.get(ScacheOptions.WORKER_SPILL_DIRS).split(",")) {
      if (!d.isBlank()) {
        dirs.add(Path.of(d.trim()));
      }
    }
    if (dirs.isEmpty()) {
      dirs.add(Path.of(System.getProperty("java.io.tmpdir"), "scache-spill"));
    }
    return java.util.Optional.of(new SpillStore(dirs, tag, conf.get(ScacheOptions.WORKER_SPILL_CAPACITY),
        conf.get(ScacheOptions.WORKER_SPILL_FILE_SIZE)));
  }

  private static Path memoryDir(String configured, long reserve) {
    if (!configured.isEmpty()) {
      return Path.of(configured);
    }
    Path shm = Path.of("/dev/shm");
    try {
      if (Files.isDirectory(shm) && Files.isWritable(shm) && Files.getFileStore(shm).getUsableSpace() >= reserve) {
        return shm;
      }
    } catch (IOException e) {
      LOG.debug("cannot inspect {}: {}", shm, e.toString());
    }
    Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
    LOG.warn("/dev/shm is missing or too small for {} bytes; backing the reserve with files in {}", reserve, tmp);
    return tmp;
  }
}
