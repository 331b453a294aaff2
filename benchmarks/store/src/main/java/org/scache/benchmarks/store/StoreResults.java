package org.scache.benchmarks.store;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.scache.dist.Throughput;

/** What {@link StoreBenchmark} measured, and its markdown tables with the ratios to the targets. */
final class StoreResults {
  private static final double MIB = 1 << 20;
  private static final int TARGET_SIZE = 1 << 20;
  private static final int ASYNC = 8;

  /** Resident memory of one worker at one moment. */
  record MemorySample(String worker, String when, long rssBytes, long peakBytes, long shmemBytes, long anonBytes) {}

  final Map<Integer, Throughput> memcpy = new TreeMap<>();
  final Map<Integer, Throughput> memcpyOutOfCache = new TreeMap<>();
  final Map<Integer, Throughput> localPut = new TreeMap<>();
  final Map<Integer, Throughput> localGet = new TreeMap<>();
  final Map<Integer, Throughput> remote = new TreeMap<>();
  final Map<Integer, Throughput> workerFetch = new TreeMap<>();
  final List<MemorySample> memory = new ArrayList<>();
  Throughput rawTcp = Throughput.NONE;
  Throughput bulkPut = Throughput.NONE;
  Throughput bulkRemote = Throughput.NONE;

  void print(PrintStream out, long rssLimit) {
    out.println();
    out.println("## Baselines");
    out.println();
    out.println("| baseline | size | GB/s |");
    out.println("|---|---:|---:|");
    memcpy.forEach((size, t) -> out.printf(Locale.ROOT,
        "| memcpy byte[] -> direct ByteBuffer, same buffers (in cache) | %s | %.2f |%n",
        StoreBenchmark.label(size), t.gbPerSecond()));
    memcpyOutOfCache.forEach((size, t) -> out.printf(Locale.ROOT,
        "| memcpy byte[] -> 384 MiB shared-memory ring (out of cache, like a put) | %s | %.2f |%n",
        StoreBenchmark.label(size), t.gbPerSecond()));
    out.printf(Locale.ROOT, "| raw loopback TCP, one stream (java.nio) | 1 MiB writes | %.2f |%n",
        rawTcp.gbPerSecond());

    out.println();
    out.println("## Local put/get (client -> the worker on its node)");
    out.println();
    out.println("| op | block | in flight | GB/s | blocks/s | x memcpy in cache | x memcpy out of cache |");
    out.println("|---|---:|---:|---:|---:|---:|---:|");
    localRows(out, "putBlock", localPut);
    localRows(out, "getBlock", localGet);

    out.println();
    out.println("## Remote fetch (client on worker2 reads blocks stored on worker1)");
    out.println();
    out.println("| block | in flight | GB/s | blocks/s | x raw loopback TCP |");
    out.println("|---:|---:|---:|---:|---:|");
    for (int size : StoreBenchmark.REMOTE_SIZES) {
      for (int inFlight : new int[] {1, ASYNC}) {
        Throughput t = remote.get(StoreBenchmark.key(size, inFlight));
        out.printf(Locale.ROOT, "| %s | %d | %.2f | %.0f | %.2f |%n", StoreBenchmark.label(size), inFlight,
            t.gbPerSecond(), t.operationsPerSecond(), ratio(t, rawTcp));
      }
    }
    out.printf(Locale.ROOT, "| 1 MiB, all of the memory phase's %d MiB once | %d | %.2f | %.0f | %.2f |%n",
        bulkRemote.operations(), ASYNC, bulkRemote.gbPerSecond(), bulkRemote.operationsPerSecond(),
        ratio(bulkRemote, rawTcp));

    out.println();
    out.println("## Worker-to-worker fetch (FETCH_BLOCKS of " + StoreBenchmark.FETCH_BATCH
        + " blocks to worker1, as a prefetching worker sends it)");
    out.println();
    out.println("| block | in flight | GB/s | x raw loopback TCP |");
    out.println("|---:|---:|---:|---:|");
    for (int size : StoreBenchmark.REMOTE_SIZES) {
      Throughput t = workerFetch.get(StoreBenchmark.key(size, ASYNC));
      out.printf(Locale.ROOT, "| %s | %d | %.2f | %.2f |%n", StoreBenchmark.label(size), ASYNC, t.gbPerSecond(),
          ratio(t, rawTcp));
    }

    out.println();
    out.println("## Worker memory (reserve 1024 MiB, child processes)");
    out.println();
    out.println("| worker | when | VmRSS MiB | of it RssShmem (reserve pages) | of it RssAnon (heap, direct, ...) "
        + "| VmHWM (peak) MiB | limit: reserve + 128 MiB |");
    out.println("|---|---|---:|---:|---:|---:|---:|");
    for (MemorySample s : memory) {
      out.printf(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %.0f |%n", s.worker(), s.when(), mib(s.rssBytes()),
          mib(s.shmemBytes()), mib(s.anonBytes()), mib(s.peakBytes()), rssLimit / MIB);
    }
    out.printf(Locale.ROOT, "%nFilling it: %d MiB put in %.2f s = %.2f GB/s (1 MiB blocks, %d in flight).%n",
        bulkPut.operations(), bulkPut.nanos() / 1e9, bulkPut.gbPerSecond(), ASYNC);

    out.println();
    out.println("## Targets");
    out.println();
    out.println("| target | measured | met |");
    out.println("|---|---|---|");
    int k = StoreBenchmark.key(TARGET_SIZE, ASYNC);
    Throughput copy = memcpy.get(TARGET_SIZE);
    Throughput cold = memcpyOutOfCache.get(TARGET_SIZE);
    target(out, "local 1 MiB put >= 0.5x memcpy out of cache (8 in flight)", ratio(localPut.get(k), cold), 0.5, "x");
    target(out, "local 1 MiB get >= 0.5x memcpy out of cache (8 in flight)", ratio(localGet.get(k), cold), 0.5, "x");
    target(out, "local 1 MiB put >= 0.5x memcpy in cache (8 in flight)", ratio(localPut.get(k), copy), 0.5, "x");
    target(out, "local 1 MiB get >= 0.5x memcpy in cache (8 in flight)", ratio(localGet.get(k), copy), 0.5, "x");
    target(out, "worker-to-worker 1 MiB fetch >= 0.8x raw loopback TCP (8 in flight)",
        ratio(workerFetch.get(k), rawTcp), 0.8, "x");
    target(out, "(client read relayed by worker2 from worker1, 1 MiB, 8 in flight, for reference)",
        ratio(remote.get(k), rawTcp), 0.8, "x");
    long maxRss = memory.stream().mapToLong(MemorySample::rssBytes).max().orElse(-1);
    boolean rssKnown = maxRss >= 0;
    out.printf(Locale.ROOT,
        "| largest worker RSS seen, reserve 90%% full <= reserve + 128 MiB (%.0f MiB) | %s MiB | %s |%n",
        rssLimit / MIB, mib(maxRss), rssKnown ? (maxRss <= rssLimit ? "yes" : "NO") : "unknown (no /proc)");
  }

  private void localRows(PrintStream out, String op, Map<Integer, Throughput> rows) {
    for (int size : StoreBenchmark.LOCAL_SIZES) {
      for (int inFlight : new int[] {1, ASYNC}) {
        Throughput t = rows.get(StoreBenchmark.key(size, inFlight));
        out.printf(Locale.ROOT, "| %s | %s | %d | %.2f | %.0f | %.2f | %.2f |%n", op, StoreBenchmark.label(size),
            inFlight, t.gbPerSecond(), t.operationsPerSecond(), ratio(t, memcpy.get(size)),
            ratio(t, memcpyOutOfCache.get(size)));
      }
    }
  }

  private static void target(PrintStream out, String what, double ratio, double goal, String unit) {
    out.printf(Locale.ROOT, "| %s | %.2f%s | %s |%n", what, ratio, unit, ratio >= goal ? "yes" : "NO");
  }

  private static double ratio(Throughput t, Throughput baseline) {
    return t == null || baseline == null || baseline.gbPerSecond() == 0 ? 0 : t.gbPerSecond() / baseline.gbPerSecond();
  }

  private static String mib(long bytes) {
    return bytes < 0 ? "n/a" : String.format(Locale.ROOT, "%.0f", bytes / MIB);
  }
}
