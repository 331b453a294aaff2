package org.scache.benchmarks.store;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.scache.client.ScacheClient;
import org.scache.common.BlockId;
import org.scache.common.config.ScacheOptions;
import org.scache.common.shuffle.PartitionerKind;
import org.scache.dist.BlockContent;
import org.scache.dist.LocalCluster;
import org.scache.dist.StoreDemo;

/**
 * The worker's spill path, measured: one worker (a child process) with a small reserve and spilling
 * on takes puts of many small blocks, several times more than its reserve holds, so that nearly
 * every put must first move a block out of memory; then every block is read back (most from disk)
 * and checked. Prints the put rate before and after the reserve fills, the read-back rate, and the
 * worker's CPU seconds for each phase, which is the figure to compare between versions of the worker
 * on a shared machine.
 */
public final class SpillPutBenchmark {
  private static final long MIB = 1 << 20;
  private static final int IN_FLIGHT = 8;

  private final PrintStream out;
  private final long reserveBytes;
  private final long totalBytes;
  private final int blockBytes;
  private final int reduces;

  private SpillPutBenchmark(long reserveMib, long totalMib, int blockKib, int reduces, PrintStream out) {
    this.reserveBytes = reserveMib * MIB;
    this.totalBytes = totalMib * MIB;
    this.blockBytes = blockKib * 1024;
    this.reduces = reduces;
    this.out = out;
  }

  public static void main(String[] args) throws Exception {
    long reserve = 64;
    long total = 384;
    int blockKib = 16;
    int reduces = 16;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--quick" -> total = 160;
        case "--reserve-mb" -> reserve = Long.parseLong(args[++i]);
        case "--mb" -> total = Long.parseLong(args[++i]);
        case "--block-kb" -> blockKib = Integer.parseInt(args[++i]);
        case "--reduces" -> reduces = Integer.parseInt(args[++i]);
        default -> {
          System.err.println("usage: mvn -pl benchmarks/store exec:exec@spill-puts -Dbench.args=\"[--quick] "
              + "[--reserve-mb N (64)] [--mb N (384)] "
              + "[--block-kb N (16)] [--reduces N (16)]\"");
          System.exit(2);
        }
      }
    }
    System.exit(new SpillPutBenchmark(reserve, total, blockKib, reduces, System.out).run());
  }

  private int run() throws Exception {
    Path spillDir = Files.createTempDirectory("scache-spill-bench-");
    List<String> jvmArgs = new ArrayList<>(StoreDemo.daemonJvmArgs());
    jvmArgs.add("-D" + ScacheOptions.WORKER_SPILL_ENABLED.key() + "=true");
    jvmArgs.add("-D" + ScacheOptions.WORKER_SPILL_DIRS.key() + "=" + spillDir);
    jvmArgs.add("-D" + ScacheOptions.WORKER_SPILL_CAPACITY.key() + "=" + (2 * totalBytes));
    int blocks = (int) (totalBytes / blockBytes);
    int maps = (blocks + reduces - 1) / reduces;
    out.printf(Locale.ROOT, "spill path: %d blocks of %d KiB (%d MiB) into a worker with a %d MiB reserve, %d in "
        + "flight; spilled to %s%n", maps * reduces, blockBytes / 1024, totalBytes / MIB, reserveBytes / MIB,
        IN_FLIGHT, spillDir);
    LocalCluster cluster = LocalCluster.start(1, reserveBytes, jvmArgs, out);
    try {
      String appId = "spill-bench-" + ProcessHandle.current().pid();
      byte[] secret = HexFormat.of().formatHex(new SecureRandom().generateSeed(16)).getBytes(StandardCharsets.UTF_8);
      long workerPid = cluster.worker(0).pid();
      try (ScacheClient client = ScacheClient.create(cluster.clientConf(0), appId, secret)) {
        cluster.awaitWorkers(client, Duration.ofSeconds(30));
        client.registerApplication();
        client.registerShuffle(0, maps, reduces, PartitionerKind.HASH);
        BlockContent content = new BlockContent(42);
        long fitting = reserveBytes / blockBytes * 3 / 4;
        double cpu0 = cpuSeconds(workerPid);
        long t0 = System.nanoTime();
        long t1 = 0;
        double cpu1 = 0;
        ArrayDeque<CompletableFuture<Void>> window = new ArrayDeque<>();
        int n = 0;
        for (int m = 0; m < maps; m++) {
          for (int r = 0; r < reduces; r++) {
            while (window.size() >= IN_FLIGHT) {
              window.poll().join();
            }
            byte[] block = new byte[blockBytes];
            content.fill(block, 0, m, r);
            window.add(client.putBlockAsync(new BlockId(appId, 0, m, 0, r), ByteBuffer.wrap(block)));
            if (++n == fitting) {
              window.forEach(CompletableFuture::join);
              window.clear();
              t1 = System.nanoTime();
              cpu1 = cpuSeconds(workerPid);
            }
          }
        }
        window.forEach(CompletableFuture::join);
        long t2 = System.nanoTime();
        double cpu2 = cpuSeconds(workerPid);
        Map<String, Long> stats = client.workerStats();
        int bad = 0;
        ArrayDeque<CompletableFuture<Boolean>> reads = new ArrayDeque<>();
        for (int m = 0; m < maps; m++) {
          for (int r = 0; r < reduces; r++) {
            while (reads.size() >= IN_FLIGHT) {
              bad += reads.poll().join() ? 0 : 1;
            }
            byte[] expected = new byte[blockBytes];
            content.fill(expected, 0, m, r);
            reads.add(client.getBlockAsync(new BlockId(appId, 0, m, 0, r)).thenApply(b -> ByteBuffer.wrap(expected)
                .equals(b)));
          }
        }
        for (CompletableFuture<Boolean> f : reads) {
          bad += f.join() ? 0 : 1;
        }
        long t3 = System.nanoTime();
        double cpu3 = cpuSeconds(workerPid);
        client.removeApplication();
        long spilling = n - fitting;
        out.println();
        out.println("| phase | blocks | seconds | blocks/s | MiB/s | worker CPU s | worker CPU us per block |");
        out.println("|---|---:|---:|---:|---:|---:|---:|");
        row("put, reserve not full", fitting, t1 - t0, cpu1 - cpu0);
        row("put, each put spills", spilling, t2 - t1, cpu2 - cpu1);
        row("read back and check (spilled ones from disk)", n, t3 - t2, cpu3 - cpu2);
        out.printf(Locale.ROOT, "%nworker: %d blocks spilled (%d MiB), %d dropped copies, %d refused as busy%n",
            stats.getOrDefault("spill.blocks", 0L), stats.getOrDefault("spill.bytes", 0L) / MIB,
            stats.getOrDefault("copies.dropped", 0L), stats.getOrDefault("put.busy", 0L));
        out.println(bad == 0 ? "verification: OK (every block read back matched)"
            : "verification: FAILED (" + bad + " blocks did not match)");
        return bad == 0 ? 0 : 1;
      }
    } finally {
      cluster.close(false);
      deleteTree(spillDir);
    }
  }

  private void row(String what, long blocks, long nanos, double cpu) {
    double s = nanos / 1e9;
    out.printf(Locale.ROOT, "| %s | %d | %.2f | %.0f | %.1f | %.2f | %.0f |%n", what, blocks, s, blocks / s,
        blocks * (double) blockBytes / MIB / s, cpu, cpu * 1e6 / blocks);
  }

  /** User and system CPU seconds of a process, from {@code /proc/<pid>/stat}. */
  static double cpuSeconds(long pid) throws IOException {
    String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    // fields 14 and 15 of stat (utime, stime) are 11 and 12 after the command
    return (Long.parseLong(f[11]) + Long.parseLong(f[12])) / 100.0;
  }

  static void deleteTree(Path dir) throws IOException {
    try (var paths = Files.walk(dir)) {
      paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }
}
