package org.scache.dist;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.scache.client.ScacheClient;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;

/**
 * A master and N workers on this machine's loopback, each a separate process, sharing a generated
 * configuration (random cluster secret, ports picked by the OS) in a temporary directory that also
 * holds their logs and pid files. Closing it, or the JVM exiting, stops every process.
 */
public final class LocalCluster implements AutoCloseable {
  private String clusterSecret = "";
  private static final Duration START_TIMEOUT = Duration.ofSeconds(30);

  private final Path dir;
  private final List<DaemonProcess> processes = new ArrayList<>();
  private final List<DaemonProcess> workers = new ArrayList<>();
  private final Thread shutdownHook = new Thread(this::stopAll, "scache-local-cluster-stop");
  private DaemonProcess master;
  private boolean closed;

  private LocalCluster(Path dir) {
    this.dir = dir;
  }

  /**
   * Starts a master and {@code numWorkers} workers with {@code reserveBytes} each; {@code jvmArgs}
   * are given to every daemon JVM. Progress goes to {@code out}.
   */
  public static LocalCluster start(int numWorkers, long reserveBytes, List<String> jvmArgs, PrintStream out)
      throws IOException, InterruptedException {
    Path dir = Files.createTempDirectory("scache-local-");
    LocalCluster cluster = new LocalCluster(dir);
    Runtime.getRuntime().addShutdownHook(cluster.shutdownHook);
    try {
      cluster.launch(numWorkers, reserveBytes, jvmArgs, out);
      return cluster;
    } catch (IOException | InterruptedException | RuntimeException e) {
      cluster.close();
      throw e;
    }
  }

  private void launch(int numWorkers, long reserveBytes, List<String> jvmArgs, PrintStream out)
      throws IOException, InterruptedException {
    Path conf = dir.resolve("conf").resolve("scache.properties");
    Files.createDirectories(conf.getParent());
    String secret = HexFormat.of().formatHex(new SecureRandom().generateSeed(24));
    clusterSecret = secret;
    String text = "# generated for a local cluster on the loopback interface\n"
        + ScacheOptions.SECURITY_CLUSTER_SECRET.key() + "=" + secret + "\n"
        + ScacheOptions.MASTER_BIND_HOST.key() + "=127.0.0.1\n"
        + ScacheOptions.MASTER_PORT.key() + "=0\n"
        + ScacheOptions.WORKER_BIND_HOST.key() + "=127.0.0.1\n"
        + ScacheOptions.WORKER_ADVERTISED_HOST.key() + "=127.0.0.1\n"
        + ScacheOptions.WORKER_PORT.key() + "=0\n"
        + ScacheOptions.WORKER_MEMORY_RESERVE.key() + "=" + reserveBytes + "\n";
    Files.writeString(conf, text, StandardCharsets.UTF_8);
    Path logs = dir.resolve("logs");
    Path pids = dir.resolve("run");
    master = DaemonProcess.start("master", "org.scache.master.MasterMain", conf, jvmArgs, logs, pids, START_TIMEOUT);
    processes.add(master);
    out.println("  master   pid " + master.pid() + ": " + master.listeningLine().trim());
    for (int i = 1; i <= numWorkers; i++) {
      List<String> args = new ArrayList<>(jvmArgs);
      args.add("-D" + ScacheOptions.WORKER_MASTER_ADDRESS.key() + "=" + masterAddress());
      args.add("-D" + ScacheOptions.WORKER_ID.key() + "=worker" + i);
      DaemonProcess w = DaemonProcess.start("worker" + i, "org.scache.worker.WorkerMain", conf, args, logs, pids,
          START_TIMEOUT);
      processes.add(w);
      workers.add(w);
      out.println("  worker" + i + "  pid " + w.pid() + ": " + w.listeningLine().trim());
    }
  }

  /** The cluster secret written to the generated configuration. */
  public String clusterSecret() {
    return clusterSecret;
  }

  /** The temporary directory with {@code conf/}, {@code logs/} and {@code run/}. */
  public Path dir() {
    return dir;
  }

  public String masterAddress() {
    return "127.0.0.1:" + master.port();
  }

  /** The master's process. */
  public DaemonProcess master() {
    return master;
  }

  /** Worker {@code i}, counted from 0. */
  public DaemonProcess worker(int i) {
    return workers.get(i);
  }

  public int size() {
    return workers.size();
  }

  /** Client configuration whose node-local worker is worker {@code i}. */
  /** The benchmark client's configuration: {@code scache.client.*} system properties apply (shared memory off, say). */
  public ScacheConf clientConf(int i) {
    return ScacheConf.empty().withSystemProperties()
        .with(ScacheOptions.CLIENT_MASTER_ADDRESS, masterAddress())
        .with(ScacheOptions.CLIENT_WORKER_ADDRESS, "127.0.0.1:" + workers.get(i).port());
  }

  /** Waits until the master lists every worker as live, polling with {@code client}. */
  public void awaitWorkers(ScacheClient client, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (client.workers().size() < workers.size()) {
      for (DaemonProcess p : processes) {
        if (!p.isAlive()) {
          throw new IllegalStateException(p.name() + " exited; last lines of " + p.log() + ":\n" + p.logTail(30));
        }
      }
      if (System.nanoTime() > deadline) {
        StringBuilder sb = new StringBuilder("workers did not register within " + timeout.toSeconds() + " s; live: "
            + client.workers());
        for (DaemonProcess w : workers) {
          sb.append("\nlast lines of ").append(w.log()).append(":\n").append(w.logTail(15));
        }
        throw new IllegalStateException(sb.toString());
      }
      Thread.sleep(50);
    }
  }

  /** Stops every process and deletes the directory unless {@code keepDir}. */
  public void close(boolean keepDir) {
    stopAll();
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException e) {
      // the JVM is already shutting down; the hook stops the processes
    }
    if (!keepDir) {
      deleteTree(dir);
    }
  }

  @Override
  public void close() {
    close(false);
  }

  private synchronized void stopAll() {
    if (closed) {
      return;
    }
    closed = true;
    // workers first, so that they do not spend their last seconds retrying the master
    for (int i = processes.size() - 1; i >= 0; i--) {
      processes.get(i).requestStop();
    }
    for (int i = processes.size() - 1; i >= 0; i--) {
      processes.get(i).close();
    }
  }

  private static void deleteTree(Path root) {
    try (Stream<Path> paths = Files.walk(root)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // best effort: it is a temporary directory
    }
  }
}
