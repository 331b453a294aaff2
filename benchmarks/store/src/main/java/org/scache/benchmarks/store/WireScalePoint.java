package org.scache.benchmarks.store;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.scache.client.ScacheClient;
import org.scache.common.BlockId;
import org.scache.common.config.ScacheOptions;
import org.scache.common.shuffle.PartitionerKind;
import org.scache.dist.DaemonProcess;
import org.scache.dist.LocalCluster;

/**
 * A worker's heap per block when its blocks come the way a map task's do: a master and one worker as processes of
 * their own, a client in this JVM that registers a shuffle of M maps × R reduces and puts its M × R blocks of one
 * byte through the worker's shared memory (each a lease copy and a commit over the worker's socket, as a Spark
 * executor puts), then declares every map's end. The worker's and the master's live heaps are read from their class
 * histograms ({@code jcmd <pid> GC.class_histogram}, which collects first) before the puts, after them and after
 * the maps' ends: what the store costs a block plus whatever the request path, the reports to the master and the
 * master's notices keep of it. The worker's block limit is set to take the whole shuffle.
 */
final class WireScalePoint {
  private static final int IN_FLIGHT = 512;
  private static final int SHUFFLE = 1;

  /** The figures of one point: heap per block at each step, and the rate of the puts and of the maps' ends. */
  record Result(long blocks, double workerAfterPuts, double workerAfterEnds, double masterAfterEnds,
      double putsPerSecond, double endsPerSecond, String workerByClassAfterPuts, String workerByClass) {}

  private WireScalePoint() {}

  static Result measure(int maps, int reduces, PrintStream progress) throws Exception {
    long blocks = (long) maps * reduces;
    long heapMb = Math.max(1024, blocks * 400 / (1 << 20) + 512);
    List<String> jvm = List.of("-Xmx" + heapMb + "m", "-XX:+UseSerialGC",
        "-D" + ScacheOptions.WORKER_BLOCKS_MAX.key() + "=" + Math.min(Integer.MAX_VALUE, blocks * 2),
        "-D" + ScacheOptions.WORKER_BLOCKS_APPLICATION_SHARE.key() + "=1.0");
    // each block takes an aligned 64 bytes of the reserve
    long reserve = Math.max(256L << 20, blocks * 64 * 2);
    LocalCluster cluster = LocalCluster.start(1, reserve, jvm, progress);
    try {
      byte[] secret = "wire-scale-secret".getBytes(StandardCharsets.UTF_8);
      String appId = "wire-scale-" + ProcessHandle.current().pid();
      try (ScacheClient client = ScacheClient.create(cluster.clientConf(0), appId, secret)) {
        cluster.awaitWorkers(client, Duration.ofSeconds(30));
        client.registerApplication();
        // a shuffle of one block first, so that the shared memory is mapped and the worker's request path is made
        // before the count
        client.registerShuffle(SHUFFLE - 1, 1, 1, PartitionerKind.HASH);
        client.putBlock(new BlockId(appId, SHUFFLE - 1, 0, 0, 0), new byte[1]);
        client.registerShuffle(SHUFFLE, maps, reduces, PartitionerKind.HASH);
        DaemonProcess worker = cluster.worker(0);
        long masterPid = cluster.master().pid();
        Map<String, Long> workerBefore = histogram(worker.pid());
        Map<String, Long> masterBefore = histogram(masterPid);
        long start = System.nanoTime();
        putAll(client, appId, maps, reduces);
        double putsPerSecond = blocks / ((System.nanoTime() - start) / 1e9);
        Map<String, Long> workerPuts = histogram(worker.pid());
        start = System.nanoTime();
        for (int m = 0; m < maps; m++) {
          client.mapFinished(SHUFFLE, m, 0);
        }
        double endsPerSecond = maps / ((System.nanoTime() - start) / 1e9);
        Map<String, Long> workerEnds = histogram(worker.pid());
        Map<String, Long> masterEnds = histogram(masterPid);
        client.removeApplication();
        return new Result(blocks, ScaleBenchmark.grown(workerBefore, workerPuts) / (double) blocks,
            ScaleBenchmark.grown(workerBefore, workerEnds) / (double) blocks,
            ScaleBenchmark.grown(masterBefore, masterEnds) / (double) blocks,
            putsPerSecond, endsPerSecond, ScaleBenchmark.grownByClass(workerBefore, workerPuts, blocks, 1.0),
            ScaleBenchmark.grownByClass(workerBefore, workerEnds, blocks, 1.0));
      }
    } finally {
      cluster.close();
    }
  }

  private static void putAll(ScacheClient client, String appId, int maps, int reduces) throws InterruptedException {
    Semaphore window = new Semaphore(IN_FLIGHT);
    List<Throwable> failures = new ArrayList<>();
    for (int m = 0; m < maps; m++) {
      for (int r = 0; r < reduces; r++) {
        window.acquire();
        CompletableFuture<Void> put = client.putBlockAsync(new BlockId(appId, SHUFFLE, m, 0, r),
            ByteBuffer.wrap(new byte[] {(byte) r}));
        put.whenComplete((v, e) -> {
          if (e != null) {
            synchronized (failures) {
              failures.add(e);
            }
          }
          window.release();
        });
      }
    }
    window.acquire(IN_FLIGHT);
    if (!failures.isEmpty()) {
      throw new IllegalStateException(failures.size() + " puts failed, the first: " + failures.get(0));
    }
  }

  /** A process's live heap by class, from {@code jcmd <pid> GC.class_histogram}. */
  private static Map<String, Long> histogram(long pid) throws IOException, InterruptedException {
    Process jcmd = new ProcessBuilder(jcmd(), Long.toString(pid), "GC.class_histogram").redirectErrorStream(true)
        .start();
    String text = new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!jcmd.waitFor(2, TimeUnit.MINUTES) || jcmd.exitValue() != 0) {
      throw new IllegalStateException("jcmd " + pid + " GC.class_histogram failed: " + text);
    }
    return ScaleBenchmark.byClass(text);
  }

  private static String jcmd() {
    return ProcessHandle.current().info().command()
        .map(java -> java.replaceAll("java$", "jcmd"))
        .orElse("jcmd");
  }
}
