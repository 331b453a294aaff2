package org.scache.spark;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import org.scache.common.testing.Await;
import org.scache.master.ScacheMaster;
import org.scache.worker.ScacheWorker;

/**
 * A real SCache master and real workers in this JVM, for Spark tests: each worker listens on its own
 * address (one per simulated host) and advertises it, so that the master's placement names hosts
 * Spark's executors run on.
 */
final class ScacheServices implements AutoCloseable {
  static final String CLUSTER_SECRET = "spark-test-cluster-secret";

  private final ScacheMaster master;
  private final List<ScacheWorker> workers = new ArrayList<>();
  private final List<ScacheConf> workerConfs = new ArrayList<>();

  /** A master and one worker per host in {@code hosts}, all workers on {@code workerPort} (0: any port). */
  static ScacheServices start(List<String> hosts, int workerPort, long reserveBytes) throws Exception {
    return new ScacheServices(hosts, workerPort, reserveBytes, ScacheConf.empty());
  }

  /** As {@link #start(List, int, long)}, every worker set by {@code workerSettings} too. */
  static ScacheServices start(List<String> hosts, int workerPort, long reserveBytes, ScacheConf workerSettings)
      throws Exception {
    return new ScacheServices(hosts, workerPort, reserveBytes, workerSettings);
  }

  /** As {@link #start(List, int, long, ScacheConf)}, the master set by {@code masterSettings} too. */
  static ScacheServices start(List<String> hosts, int workerPort, long reserveBytes, ScacheConf workerSettings,
      ScacheConf masterSettings) throws Exception {
    return new ScacheServices(hosts, workerPort, reserveBytes, workerSettings, masterSettings);
  }

  private ScacheServices(List<String> hosts, int workerPort, long reserveBytes, ScacheConf workerSettings)
      throws Exception {
    this(hosts, workerPort, reserveBytes, workerSettings, ScacheConf.empty());
  }

  private ScacheServices(List<String> hosts, int workerPort, long reserveBytes, ScacheConf workerSettings,
      ScacheConf masterSettings) throws Exception {
    ScacheConf conf = ScacheConf.empty()
        .with(ScacheOptions.SECURITY_CLUSTER_SECRET, CLUSTER_SECRET)
        .with(ScacheOptions.MASTER_BIND_HOST, "127.0.0.1")
        .with(ScacheOptions.MASTER_PORT, 0)
        .with(ScacheOptions.MASTER_HTTP_BIND_HOST, "127.0.0.1")
        .with(ScacheOptions.MASTER_HTTP_PORT, 0)
        .with(ScacheOptions.MASTER_HEARTBEAT_INTERVAL.key(), "200ms")
        // no test here waits for a worker to expire; a loaded build machine can hold a heartbeat back for seconds,
        // and a worker expired then is left out of the placement made at that moment
        .with(ScacheOptions.MASTER_WORKER_EXPIRY.key(), "10s");
    ScacheConf masterConf = conf;
    for (Map.Entry<String, String> setting : masterSettings.asMap().entrySet()) {
      masterConf = masterConf.with(setting.getKey(), setting.getValue());
    }
    master = ScacheMaster.start(masterConf);
    Path spill = Files.createTempDirectory("scache-spark-spill");
    for (int i = 0; i < hosts.size(); i++) {
      String host = hosts.get(i);
      ScacheConf workerConf = conf
          .with(ScacheOptions.WORKER_MASTER_ADDRESS, "127.0.0.1:" + master.port())
          .with(ScacheOptions.WORKER_ID, "worker-" + i)
          .with(ScacheOptions.WORKER_BIND_HOST, host.startsWith("127.") ? host : "0.0.0.0")
          .with(ScacheOptions.WORKER_ADVERTISED_HOST, host)
          .with(ScacheOptions.WORKER_PORT, workerPort)
          .with(ScacheOptions.WORKER_SPILL_DIRS, spill.resolve("worker-" + i).toString())
          .with(ScacheOptions.WORKER_MEMORY_RESERVE.key(), Long.toString(reserveBytes));
      for (Map.Entry<String, String> setting : workerSettings.asMap().entrySet()) {
        workerConf = workerConf.with(setting.getKey(), setting.getValue());
      }
      workerConfs.add(workerConf);
      workers.add(ScacheWorker.start(workerConf));
    }
    Await.until(() -> master.liveWorkers().size() == hosts.size()
        && workers.stream().allMatch(ScacheWorker::isRegistered),
        Duration.ofSeconds(20), () -> "workers did not register: " + master.liveWorkers());
  }

  String masterAddress() {
    return "127.0.0.1:" + master.port();
  }

  ScacheWorker worker(int i) {
    return workers.get(i);
  }

  int workerPort(int i) {
    return workers.get(i).info().port();
  }

  /**
   * Stops worker {@code i} and starts a fresh one in its place, on the same address with the same id: a worker
   * process that died and was restarted. It starts empty, as every worker does (it removes its earlier run's
   * spill files and reads none back).
   */
  void restartWorker(int i) throws Exception {
    int port = workers.get(i).info().port();
    workers.get(i).close();
    ScacheWorker fresh = ScacheWorker.start(workerConfs.get(i).with(ScacheOptions.WORKER_PORT, port));
    workers.set(i, fresh);
    Await.until(fresh::isRegistered, Duration.ofSeconds(20), () -> "worker " + i + " did not register again");
  }

  /** A counter of worker {@code i}. */
  long stat(int i, String name) {
    Map<String, Long> stats = workers.get(i).stats();
    return stats.getOrDefault(name, 0L);
  }

  /** The sum of a counter over every worker. */
  long total(String name) {
    long sum = 0;
    for (int i = 0; i < workers.size(); i++) {
      sum += stat(i, name);
    }
    return sum;
  }

  /** A counter of the master, as its Prometheus endpoint gives it (0 before it is first counted). */
  long masterCounter(String name) throws Exception {
    java.net.http.HttpResponse<String> page = java.net.http.HttpClient.newHttpClient().send(
        java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + master.httpPort().orElseThrow()
            + "/metrics")).build(), java.net.http.HttpResponse.BodyHandlers.ofString());
    for (String line : page.body().split("\n")) {
      if (line.startsWith(name + " ")) {
        return (long) Double.parseDouble(line.substring(name.length() + 1).trim());
      }
    }
    return 0;
  }

  @Override
  public void close() {
    workers.forEach(ScacheWorker::close);
    master.close();
  }
}
