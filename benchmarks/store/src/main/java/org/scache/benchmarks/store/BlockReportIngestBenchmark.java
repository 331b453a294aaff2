package org.scache.benchmarks.store;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.scache.common.BlockId;
import org.scache.common.WorkerInfo;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import org.scache.common.shuffle.BlockSize;
import org.scache.common.shuffle.PartitionerKind;
import org.scache.common.shuffle.ShuffleSpec;
import org.scache.master.InProcessRequests;
import org.scache.master.ScacheMaster;

/**
 * How many block-size reports per second the master ingests: REPORT_BLOCKS messages of 1,024
 * reports each, built beforehand, fed straight into the master's handling code in this JVM (no
 * network, no codec: {@link InProcessRequests}), for one shuffle of maps × reduces blocks. Prints
 * reports/s per run.
 */
public final class BlockReportIngestBenchmark {
  private static final int BATCH = 1024;

  private BlockReportIngestBenchmark() {}

  /** Arguments: [maps] [reduces] [runs]; defaults 1000 × 1000 (1M reports), 5 runs. */
  public static void main(String[] args) throws Exception {
    int maps = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
    int reduces = args.length > 1 ? Integer.parseInt(args[1]) : 1000;
    int runs = args.length > 2 ? Integer.parseInt(args[2]) : 5;
    run(System.out, maps, reduces, runs);
  }

  static void run(PrintStream out, int maps, int reduces, int runs) throws Exception {
    ScacheConf conf = ScacheConf.empty().with(ScacheOptions.SECURITY_CLUSTER_SECRET, "bench")
        .with(ScacheOptions.MASTER_BIND_HOST, "127.0.0.1").with(ScacheOptions.MASTER_PORT, 0)
        .with(ScacheOptions.MASTER_WORKER_EXPIRY.key(), "1h");
    List<WorkerInfo> workers = List.of(new WorkerInfo("bench-w0", "127.0.0.1", 1),
        new WorkerInfo("bench-w1", "127.0.0.1", 2), new WorkerInfo("bench-w2", "127.0.0.1", 3),
        new WorkerInfo("bench-w3", "127.0.0.1", 4));
    out.printf("Master block-report ingest: %d maps × %d reduces = %,d reports per run, in REPORT_BLOCKS batches "
        + "of %d, one feeding thread%n", maps, reduces, (long) maps * reduces, BATCH);
    out.printf("%-6s %12s %14s%n", "run", "ms", "reports/s");
    try (ScacheMaster master = ScacheMaster.start(conf)) {
      InProcessRequests requests = master.inProcess();
      for (WorkerInfo w : workers) {
        requests.registerWorker(w, 1L << 30, 0);
      }
      String app = "bench-app";
      requests.registerApplication(app, "secret".getBytes(StandardCharsets.UTF_8));
      for (int run = 0; run <= runs; run++) {
        int shuffle = run;
        requests.registerShuffle(new ShuffleSpec(app, shuffle, maps, reduces, PartitionerKind.HASH, 0));
        List<Batch> batches = batches(app, shuffle, maps, reduces, workers);
        long t0 = System.nanoTime();
        for (Batch b : batches) {
          requests.reportBlocks(b.workerId(), b.blocks());
        }
        long nanos = System.nanoTime() - t0;
        long reports = (long) maps * reduces;
        out.printf("%-6s %12.1f %,14.0f%n", run == 0 ? "warmup" : Integer.toString(run), nanos / 1e6,
            reports * 1e9 / nanos);
        requests.unregisterShuffle(app, shuffle);
      }
    }
  }

  /** One REPORT_BLOCKS message's reports, from one worker. */
  private record Batch(String workerId, List<BlockSize> blocks) {}

  /** The reports of every block, map after map as workers send them, map m from worker m mod n. */
  private static List<Batch> batches(String app, int shuffle, int maps, int reduces,
      List<WorkerInfo> workers) {
    List<Batch> out = new ArrayList<>();
    List<BlockSize> batch = new ArrayList<>(BATCH);
    String worker = null;
    for (int m = 0; m < maps; m++) {
      String holder = workers.get(m % workers.size()).workerId();
      for (int r = 0; r < reduces; r++) {
        if (batch.size() == BATCH || (worker != null && !worker.equals(holder))) {
          out.add(new Batch(worker, List.copyOf(batch)));
          batch = new ArrayList<>(BATCH);
        }
        worker = holder;
        batch.add(new BlockSize(new BlockId(app, shuffle, m, 0, r), 1000 + (m * 31 + r) % 4096));
      }
    }
    if (!batch.isEmpty()) {
      out.add(new Batch(worker, List.copyOf(batch)));
    }
    return out;
  }
}
