package org.scache.tests;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.scache.client.ScacheClient;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import org.scache.common.testing.Await;
import org.scache.master.ScacheMaster;
import org.scache.worker.ScacheWorker;

/**
 * A master and N workers in this JVM on random loopback ports, for integration tests. Workers can
 * be stopped and started again under the same identity and port.
 */
public final class InProcessCluster implements AutoCloseable {
  public static final String CLUSTER_SECRET = "test-cluster-secret";

  private ScacheMaster master;
  private ScacheConf masterConf;
  private final List<ScacheWorker> workers = new ArrayList<>();
  private final List<Integer> workerPorts = new ArrayList<>();
  private final long reserveBytes;
  private final ScacheConf base;
  private final java.nio.file.Path spillRoot;

  private InProcessCluster(int numWorkers, long reserveBytes, ScacheConf extra) throws Exception {
    this.reserveBytes = reserveBytes;
    this.spillRoot = java.nio.file.Files.createTempDirectory("scache-it-spill");
    ScacheConf conf = extra.with(ScacheOptions.SECURITY_CLUSTER_SECRET, CLUSTER_SECRET)
        .with(ScacheOptions.MASTER_BIND_HOST, "127.0.0.1")
        .with(ScacheOptions.MASTER_PORT, 0)
        .with(ScacheOptions.WORKER_BIND_HOST, "127.0.0.1")
        .with(ScacheOptions.WORKER_ADVERTISED_HOST, "127.0.0.1");
    // status pages and metrics on free ports, so that clusters and other daemons on the machine never collide
    if (!extra.isSet(ScacheOptions.MASTER_HTTP_PORT)) {
      conf = conf.with(ScacheOptions.MASTER_HTTP_PORT, 0).with(ScacheOptions.MASTER_HTTP_BIND_HOST, "127.0.0.1");
    }
    if (!extra.isSet(ScacheOptions.WORKER_HTTP_PORT)) {
      conf = conf.with(ScacheOptions.WORKER_HTTP_PORT, 0).with(ScacheOptions.WORKER_HTTP_BIND_HOST, "127.0.0.1");
    }
    if (!extra.isSet(ScacheOptions.MASTER_HEARTBEAT_INTERVAL)) {
      conf = conf.with(ScacheOptions.MASTER_HEARTBEAT_INTERVAL.key(), "200ms")
          .with(ScacheOptions.MASTER_WORKER_EXPIRY.key(), "2s");
    }
    masterConf = conf;
    master = ScacheMaster.start(conf);
    base = conf.with(ScacheOptions.WORKER_MASTER_ADDRESS, "127.0.0.1:" + master.port());
    for (int i = 0; i < numWorkers; i++) {
      workers.add(null);
      workerPorts.add(0);
      startWorker(i);
    }
    awaitRegistered(Duration.ofSeconds(20));
  }

  public static InProcessCluster start(int numWorkers, long reserveBytes) throws Exception {
    return new InProcessCluster(numWorkers, reserveBytes, ScacheConf.empty());
  }

  public static InProcessCluster start(int numWorkers, long reserveBytes, ScacheConf extra) throws Exception {
    return new InProcessCluster(numWorkers, reserveBytes, extra);
  }

  /** Starts worker {@code i} (again), under identity {@code worker-i}, on its earlier port if it had one. */
  public void startWorker(int i) throws Exception {
    ScacheConf conf = base;
    if (!base.isSet(ScacheOptions.WORKER_SPILL_DIRS)) {
      conf = conf.with(ScacheOptions.WORKER_SPILL_DIRS, spillDir(i).toString());
    }
    conf = conf.with(ScacheOptions.WORKER_ID, "worker-" + i)
        .with(ScacheOptions.WORKER_PORT, workerPorts.get(i))
        .with(ScacheOptions.WORKER_MEMORY_RESERVE.key(), Long.toString(reserveBytes));
    ScacheWorker w = ScacheWorker.start(conf);
    workers.set(i, w);
    workerPorts.set(i, w.info().port());
  }

  /** The spill directory of worker {@code i} (unless the configuration names one). */
  public java.nio.file.Path spillDir(int i) {
    return spillRoot.resolve("worker-" + i);
  }

  public void stopWorker(int i) {
    workers.get(i).close();
  }

  public void awaitRegistered(Duration timeout) {
    Await.until(() -> master.liveWorkers().size() >= workers.size()
        && workers.stream().allMatch(ScacheWorker::isRegistered), timeout,
        () -> "workers did not register: " + master.liveWorkers());
  }

  /** Stops the master and starts a new one on the same port with the same configuration. */
  public void restartMaster() throws Exception {
    int port = master.port();
    master.close();
    master = ScacheMaster.start(masterConf.with(ScacheOptions.MASTER_PORT, port));
  }

  public ScacheMaster master() {
    return master;
  }

  public ScacheWorker worker(int i) {
    return workers.get(i);
  }

  /** A worker's counter, by its name in {@code stats()}. */
  public long stat(int worker, String name) {
    return workers.get(worker).stats().get(name);
  }

  public int size() {
    return workers.size();
  }

  /** Client configuration that talks to worker {@code i} as its node's worker. */
  public ScacheConf clientConf(int i) {
    return ScacheConf.empty()
        .with(ScacheOptions.CLIENT_MASTER_ADDRESS, "127.0.0.1:" + master.port())
        .with(ScacheOptions.CLIENT_WORKER_ADDRESS, "127.0.0.1:" + workerPorts.get(i))
        .with(ScacheOptions.CLIENT_REQUEST_TIMEOUT.key(), "10s")
        .with(ScacheOptions.CLIENT_RETRY_BACKOFF.key(), "50ms");
  }

  public ScacheClient client(int worker, String appId, String secret) {
    return ScacheClient.create(clientConf(worker), appId, secret.getBytes(StandardCharsets.UTF_8));
  }

  @Override
  public void close() {
    for (ScacheWorker w : workers) {
      try {
        w.close();
      } catch (RuntimeException e) {
        // already stopped
      }
    }
    master.close();
    try (java.util.stream.Stream<java.nio.file.Path> files = java.nio.file.Files.walk(spillRoot)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (java.io.IOException e) {
      // left for the system's temporary-file cleanup
    }
  }
}
