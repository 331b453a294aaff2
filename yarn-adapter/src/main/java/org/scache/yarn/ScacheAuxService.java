package org.scache.yarn;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.DataInputByteBuffer;
import org.apache.hadoop.mapreduce.security.token.JobTokenIdentifier;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.api.ApplicationInitializationContext;
import org.apache.hadoop.yarn.server.api.ApplicationTerminationContext;
import org.apache.hadoop.yarn.server.api.AuxiliaryService;
import org.apache.hadoop.yarn.server.api.ContainerInitializationContext;
import org.scache.common.DaemonThreads;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import org.scache.worker.ScacheWorker;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * YARN NodeManager auxiliary service that runs an SCache worker inside the NodeManager. It takes
 * each application's shuffle token as the application's secret, vouches to the master for every application
 * the NodeManager starts a container of (its user, and its secret when known), frees the application's blocks
 * when it stops, and publishes the worker's address to the node's containers as its metadata.
 * Configured with the {@code scache.*} keys of yarn-site.xml; see docs/deploy-yarn.md.
 */
public class ScacheAuxService extends AuxiliaryService {
  /** The name under which docs/deploy-yarn.md registers the service. */
  public static final String NAME = "scache";

  private static final Logger LOG = LoggerFactory.getLogger(ScacheAuxService.class);

  /** The longest wait between two attempts to start a worker that could not start. */
  static final Duration MAX_RETRY_INTERVAL = Duration.ofSeconds(30);

  private ScacheConf scacheConf;
  private volatile ScacheWorker worker;
  private volatile Throwable startFailure;
  private ScheduledExecutorService retries;
  private boolean stopped;
  private volatile String metricsSourceName;

  public ScacheAuxService() {
    super(NAME);
  }

  @Override
  protected void serviceInit(Configuration conf) throws Exception {
    scacheConf = onNodeManagerHost(HadoopScacheConf.from(conf), conf);
    super.serviceInit(conf);
  }

  /**
   * Starts the worker. A worker that cannot start (its port taken, its memory not to be had) does not
   * stop the NodeManager, which still runs every job that does not ask for SCache: the service tries
   * again after 1 s, then at doubling intervals up to {@link #MAX_RETRY_INTERVAL}, with a new port
   * each time when the port is chosen at random, until the worker starts or the service stops. A
   * configuration the worker refuses is logged once and not tried again.
   */
  @Override
  protected void serviceStart() throws Exception {
    if (startFailedForNow()) {
      retries = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("scache-aux-service-start"));
      scheduleRetry(Duration.ofSeconds(1));
    }
    super.serviceStart();
  }

  private void scheduleRetry(Duration delay) {
    retries.schedule(() -> {
      try {
        if (startFailedForNow()) {
          Duration doubled = delay.multipliedBy(2);
          scheduleRetry(doubled.compareTo(MAX_RETRY_INTERVAL) > 0 ? MAX_RETRY_INTERVAL : doubled);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, delay.toMillis(), TimeUnit.MILLISECONDS);
  }

  /**
   * One attempt to start the worker; true when it did not start for a reason that may pass (a port,
   * memory, a file), so that another attempt may succeed. A failure's cause is logged and kept.
   */
  private boolean startFailedForNow() throws InterruptedException {
    ScacheWorker started;
    try {
      started = ScacheWorker.start(withIdentity(scacheConf));
    } catch (IOException e) {
      startFailure = e;
      LOG.error("SCache worker could not start; jobs that enable SCache cannot run their tasks on this node until "
          + "it does. Trying again", e);
      return true;
    } catch (RuntimeException e) {
      // a configuration the worker refuses: trying again would not change it
      startFailure = e;
      LOG.error("SCache worker cannot start with this configuration; jobs that enable SCache cannot run their "
          + "tasks on this node", e);
      return false;
    }
    synchronized (this) {
      if (stopped) {
        started.close();
        return false;
      }
      worker = started;
    }
    startFailure = null;
    registerMetrics(started);
    LOG.info("SCache worker {} started in this NodeManager, serving on {}", started.info().workerId(),
        started.info().address());
    return false;
  }

  /**
   * Publishes the worker's stats into the NodeManager's metrics system. Several NodeManagers in one JVM
   * (a mini cluster) each get their own source name.
   */
  private void registerMetrics(ScacheWorker started) {
    WorkerMetricsSource source = new WorkerMetricsSource(started.info().workerId(), started::stats);
    org.apache.hadoop.metrics2.MetricsSystem system = org.apache.hadoop.metrics2.lib.DefaultMetricsSystem.instance();
    String name = WorkerMetricsSource.RECORD;
    try {
      system.register(name, "SCache worker in this NodeManager", source);
    } catch (org.apache.hadoop.metrics2.MetricsException e) {
      name = WorkerMetricsSource.RECORD + "-" + started.info().port();
      system.register(name, "SCache worker in this NodeManager", source);
    }
    metricsSourceName = name;
  }

  @Override
  protected void serviceStop() throws Exception {
    ScacheWorker w;
    synchronized (this) {
      stopped = true;
      w = worker;
      worker = null;
    }
    if (retries != null) {
      retries.shutdownNow();
    }
    if (metricsSourceName != null) {
      org.apache.hadoop.metrics2.lib.DefaultMetricsSystem.instance().unregisterSource(metricsSourceName);
    }
    if (w != null) {
      w.close();
    }
    super.serviceStop();
  }

  /**
   * Called for every container of an application that names this service; registering again is harmless. The
   * worker vouches to the master for the application, its user and its job's secret.
   */
  @Override
  public void initializeApplication(ApplicationInitializationContext context) {
    ScacheWorker w = worker;
    String appId = context.getApplicationId().toString();
    ByteBuffer data = context.getApplicationDataForService();
    if (w == null) {
      return;
    }
    byte[] secret = new byte[0];
    if (data != null && data.hasRemaining()) {
      try {
        secret = secretOf(data);
      } catch (IOException | RuntimeException e) {
        LOG.warn("application {} gave SCache an unreadable shuffle token; the secret will come from the master",
            appId, e);
      }
    }
    // Hadoop 3.4's MR AM hands extra shuffle providers an empty buffer; the worker then learns the
    // application's secret from the master, where the job's tasks register it
    w.vouchApplication(appId, context.getUser() == null ? "" : context.getUser(), secret);
  }

  /**
   * Called for every container the NodeManager starts, the application master's among them, before any
   * container of the application may have named this service: the worker vouches for the application and its
   * user, without its secret, so that the application master can register.
   */
  @Override
  public void initializeContainer(ContainerInitializationContext context) {
    ScacheWorker w = worker;
    if (w != null && context.getUser() != null && !context.getUser().isEmpty()) {
      w.vouchApplication(context.getContainerId().getApplicationAttemptId().getApplicationId().toString(),
          context.getUser(), new byte[0]);
    }
  }

  @Override
  public void stopApplication(ApplicationTerminationContext context) {
    ScacheWorker w = worker;
    if (w != null) {
      w.removeApplication(context.getApplicationId().toString());
    }
  }

  /** The worker's {@code host:port}, which the NodeManager passes to every container it launches. */
  @Override
  public ByteBuffer getMetaData() {
    ScacheWorker w = worker;
    return w == null ? ByteBuffer.allocate(0) : NodeWorkerAddress.encode(w.info().address());
  }

  /** The embedded worker, when it is running. */
  public ScacheWorker worker() {
    return worker;
  }

  /** Why the worker is not running, while it is not and the service keeps trying; empty otherwise. */
  public Optional<Throwable> startFailure() {
    return worker == null ? Optional.ofNullable(startFailure) : Optional.empty();
  }

  /**
   * The worker takes its NodeManager's address when its own is not configured: a NodeManager bound to
   * one address ({@code yarn.nodemanager.bind-host}) has the worker listen there too, and a
   * NodeManager known by a specific host ({@code yarn.nodemanager.address}, not a wildcard) has the
   * worker advertise that host, canonicalised as the NodeManager does for its node id. Then the
   * workers' hosts are the names YARN schedules by, also for several NodeManagers on one machine
   * with an address each.
   */
  static ScacheConf onNodeManagerHost(ScacheConf conf, Configuration nodeManagerConf) {
    ScacheConf out = conf;
    String bindHost = nodeManagerConf.getTrimmed(YarnConfiguration.NM_BIND_HOST, "");
    if (!conf.isSet(ScacheOptions.WORKER_BIND_HOST) && !bindHost.isEmpty()) {
      out = out.with(ScacheOptions.WORKER_BIND_HOST, bindHost);
    }
    String address = nodeManagerConf.getTrimmed(YarnConfiguration.NM_ADDRESS, "");
    String host = address.contains(":") ? address.substring(0, address.lastIndexOf(':')) : address;
    if (!conf.isSet(ScacheOptions.WORKER_ADVERTISED_HOST) && !host.isEmpty() && !isWildcard(host)) {
      try {
        out = out.with(ScacheOptions.WORKER_ADVERTISED_HOST,
            java.net.InetAddress.getByName(host).getCanonicalHostName());
      } catch (java.net.UnknownHostException e) {
        LOG.warn("the NodeManager's host {} does not resolve; the SCache worker names itself by this machine's "
            + "host name", host);
      }
    }
    return out;
  }

  private static boolean isWildcard(String host) {
    return host.equals("0.0.0.0") || host.equals("::") || host.equals("[::]");
  }

  /**
   * Gives a worker on a random port ({@code scache.worker.rpc.port=0}, for several NodeManagers on one
   * host) a fixed port and the identity host:port before it starts, so that workers sharing a host
   * have distinct identities and distinct memory files from the start.
   */
  static ScacheConf withIdentity(ScacheConf conf) throws IOException {
    if (conf.isSet(ScacheOptions.WORKER_ID) || conf.get(ScacheOptions.WORKER_PORT) != 0) {
      return conf;
    }
    int port;
    try (java.net.ServerSocket probe = new java.net.ServerSocket(0, 1,
        java.net.InetAddress.getByName(conf.get(ScacheOptions.WORKER_BIND_HOST)))) {
      port = probe.getLocalPort();
    }
    String host = conf.get(ScacheOptions.WORKER_ADVERTISED_HOST);
    if (host.isEmpty()) {
      host = java.net.InetAddress.getLocalHost().getCanonicalHostName();
    }
    return conf.with(ScacheOptions.WORKER_PORT, port).with(ScacheOptions.WORKER_ID, host + ":" + port);
  }

  /** The password of the shuffle token the MapReduce AM passes to shuffle providers (as ShuffleHandler reads it). */
  static byte[] secretOf(ByteBuffer serviceData) throws IOException {
    if (serviceData == null || !serviceData.hasRemaining()) {
      throw new IOException("no service data");
    }
    DataInputByteBuffer in = new DataInputByteBuffer();
    in.reset(serviceData.duplicate());
    Token<JobTokenIdentifier> token = new Token<>();
    token.readFields(in);
    byte[] secret = token.getPassword();
    if (secret == null || secret.length == 0) {
      throw new IOException("the shuffle token has an empty password");
    }
    return secret;
  }
}
