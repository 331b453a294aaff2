package org.scache.dist;

import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import org.scache.client.ReduceInput;
import org.scache.client.ScacheClient;
import org.scache.common.BlockId;
import org.scache.common.shuffle.PartitionerKind;

/**
 * Shows SCache working end to end on one machine: starts a master and two workers as separate
 * processes, puts a shuffle's blocks through worker 1, reads every block back through worker 1
 * (local) and worker 2 (fetched from worker 1), reads each reduce's input through both, checks
 * every byte, and stops the processes. Exits 0 only when every byte matched.
 */
public final class StoreDemo {
  private static final int SHUFFLE = 0;
  private static final int ATTEMPT = 0;
  private static final int IN_FLIGHT = 8;
  private static final long MIB = 1 << 20;

  private final PrintStream out;
  private final DemoOptions options;
  private final BlockContent content = new BlockContent(new SecureRandom().nextLong());
  private final int maps;
  private final int blockBytes;
  private int failures;

  private StoreDemo(DemoOptions options, PrintStream out) {
    this.options = options;
    this.out = out;
    this.blockBytes = options.blockKib() * 1024;
    long blocks = Math.max(1, (options.mib() * MIB + blockBytes - 1) / blockBytes);
    this.maps = (int) Math.max(1, (blocks + options.reduces() - 1) / options.reduces());
  }

  /** A read in flight. */
  private record PendingRead(int map, int reduce, CompletableFuture<ByteBuffer> data) {}

  /** Command-line options of the demo. */
  record DemoOptions(int mib, int blockKib, int reduces, boolean keep) {
    static DemoOptions parse(String[] args) {
      int mib = 256;
      int blockKib = 1024;
      int reduces = 8;
      boolean keep = false;
      for (int i = 0; i < args.length; i++) {
        switch (args[i]) {
          case "--mb" -> mib = positive(args, ++i);
          case "--block-kb" -> blockKib = positive(args, ++i);
          case "--reduces" -> reduces = positive(args, ++i);
          case "--keep" -> keep = true;
          case "-h", "--help" -> throw new IllegalArgumentException("");
          default -> throw new IllegalArgumentException("unknown argument: " + args[i]);
        }
      }
      return new DemoOptions(mib, blockKib, reduces, keep);
    }

    private static int positive(String[] args, int i) {
      if (i >= args.length) {
        throw new IllegalArgumentException(args[i - 1] + " needs a value");
      }
      int v = Integer.parseInt(args[i]);
      if (v <= 0) {
        throw new IllegalArgumentException(args[i - 1] + " must be positive: " + v);
      }
      return v;
    }
  }

  public static void main(String[] args) {
    DemoOptions options;
    try {
      options = DemoOptions.parse(args);
    } catch (IllegalArgumentException e) {
      if (!e.getMessage().isEmpty()) {
        System.err.println("scache-demo: " + e.getMessage());
      }
      System.err.println("usage: scache-demo [--mb MIB (256)] [--block-kb KIB (1024)] [--reduces N (8)] [--keep]\n"
          + "  --keep  keep the temporary directory with the daemons' configuration and logs");
      System.exit(2);
      return;
    }
    int code;
    try {
      code = new StoreDemo(options, System.out).run();
    } catch (Exception e) {
      System.err.println("scache-demo FAILED: " + (e instanceof IllegalStateException ? e.getMessage() : e));
      code = 2;
    }
    System.exit(code);
  }

  private int run() throws Exception {
    long totalBytes = (long) maps * options.reduces() * blockBytes;
    long reserve = Math.max(1L << 30, (totalBytes + totalBytes / 8 + 64 * MIB) / MIB * MIB);
    out.printf(Locale.ROOT, "SCache store demo: %d maps x %d reduces x %d KiB blocks = %d MiB%n", maps,
        options.reduces(), options.blockKib(), totalBytes / MIB);
    out.printf(Locale.ROOT, "starting a master and two workers (%d MiB reserve each) as separate processes%n",
        reserve / MIB);
    LocalCluster cluster = LocalCluster.start(2, reserve, daemonJvmArgs(), out);
    boolean ok = false;
    try {
      out.println("  logs and configuration in " + cluster.dir());
      String appId = "scache-demo-" + ProcessHandle.current().pid();
      byte[] secret = HexFormat.of().formatHex(new SecureRandom().generateSeed(16)).getBytes(StandardCharsets.UTF_8);
      try (ScacheClient local = ScacheClient.create(cluster.clientConf(0), appId, secret);
          ScacheClient remote = ScacheClient.create(cluster.clientConf(1), appId, secret)) {
        cluster.awaitWorkers(local, Duration.ofSeconds(30));
        out.println("both workers registered with the master");
        try {
          ok = exchange(local, remote, totalBytes);
        } finally {
          local.removeApplication();
          out.println("application " + appId + " removed");
        }
      }
      return ok ? 0 : 1;
    } finally {
      out.println("stopping the daemons");
      cluster.close(options.keep() || !ok);
      if (options.keep() || !ok) {
        out.println("kept " + cluster.dir());
      }
    }
  }

  private boolean exchange(ScacheClient local, ScacheClient remote, long totalBytes) {
    local.registerApplication();
    local.registerShuffle(SHUFFLE, maps, options.reduces(), PartitionerKind.HASH);

    long start = System.nanoTime();
    List<CompletableFuture<Void>> finished = put(local, totalBytes);
    double putSeconds = seconds(start);
    CompletableFuture.allOf(finished.toArray(CompletableFuture[]::new)).join();
    out.printf(Locale.ROOT, "put %d MiB through worker 1 in %.2f s; %d maps finished%n", totalBytes / MIB,
        putSeconds, maps);

    double localSeconds = readBlocks("worker 1 (local)", local);
    double remoteSeconds = readBlocks("worker 2 (remote, fetched from worker 1)", remote);
    double reduceLocal = readReduceInputs("worker 1", local);
    double reduceRemote = readReduceInputs("worker 2", remote);

    boolean ok = failures == 0;
    out.println();
    out.println("| what | MiB | seconds | MiB/s |");
    out.println("|---|---:|---:|---:|");
    row("put through worker 1 (8 in flight)", totalBytes, putSeconds);
    row("getBlock through worker 1, local (8 in flight, incl. verification)", totalBytes, localSeconds);
    row("getBlock through worker 2, remote (8 in flight, incl. verification)", totalBytes, remoteSeconds);
    row("getReduceInput through worker 1 (incl. verification)", totalBytes, reduceLocal);
    row("getReduceInput through worker 2 (incl. verification)", totalBytes, reduceRemote);
    out.println();
    out.println("verification: " + (ok ? "OK (every byte of every read matched)" : "FAILED (" + failures
        + " blocks did not match)"));
    return ok;
  }

  /** Puts every block, 8 in flight, declaring each map finished once its blocks are stored. */
  private List<CompletableFuture<Void>> put(ScacheClient client, long totalBytes) {
    List<CompletableFuture<Void>> finished = new ArrayList<>(maps);
    ArrayDeque<CompletableFuture<Void>> window = new ArrayDeque<>();
    long done = 0;
    long nextReport = totalBytes / 10;
    for (int m = 0; m < maps; m++) {
      List<CompletableFuture<Void>> mapPuts = new ArrayList<>(options.reduces());
      for (int r = 0; r < options.reduces(); r++) {
        while (window.size() >= IN_FLIGHT) {
          window.poll().join();
        }
        byte[] block = new byte[blockBytes];
        content.fill(block, SHUFFLE, m, r);
        CompletableFuture<Void> f = client.putBlockAsync(id(client, m, r), ByteBuffer.wrap(block));
        window.add(f);
        mapPuts.add(f);
        done += blockBytes;
        if (done >= nextReport) {
          out.printf(Locale.ROOT, "  put %d/%d MiB%n", done / MIB, totalBytes / MIB);
          nextReport += totalBytes / 10;
        }
      }
      int mapId = m;
      finished.add(CompletableFuture.allOf(mapPuts.toArray(CompletableFuture[]::new))
          .thenCompose(v -> client.mapFinishedAsync(SHUFFLE, mapId, ATTEMPT)));
    }
    window.forEach(CompletableFuture::join);
    return finished;
  }

  /** Reads every block through {@code client}, 8 in flight, checking each; returns the seconds taken. */
  private double readBlocks(String through, ScacheClient client) {
    out.println("reading every block through " + through);
    byte[] scratch = new byte[blockBytes];
    ArrayDeque<PendingRead> window = new ArrayDeque<>();
    int total = maps * options.reduces();
    int checked = 0;
    long start = System.nanoTime();
    for (int m = 0; m < maps; m++) {
      for (int r = 0; r < options.reduces(); r++) {
        if (window.size() >= IN_FLIGHT) {
          checked = check(window.poll(), scratch, checked, total);
        }
        window.add(new PendingRead(m, r, client.getBlockAsync(id(client, m, r))));
      }
    }
    while (!window.isEmpty()) {
      checked = check(window.poll(), scratch, checked, total);
    }
    return seconds(start);
  }

  private int check(PendingRead pending, byte[] scratch, int checked, int total) {
    verify(pending.data().join(), scratch, pending.map(), pending.reduce(), "block");
    checked++;
    if (checked % Math.max(1, total / 4) == 0) {
      out.printf(Locale.ROOT, "  read %d/%d blocks%n", checked, total);
    }
    return checked;
  }

  /** Reads each reduce's whole input through {@code client}, checking it; returns the seconds taken. */
  private double readReduceInputs(String through, ScacheClient client) {
    out.println("reading each reduce's input through " + through);
    byte[] scratch = new byte[blockBytes];
    long start = System.nanoTime();
    for (int r = 0; r < options.reduces(); r++) {
      ReduceInput input = client.getReduceInput(SHUFFLE, r);
      if (input.numMaps() != maps || input.finishedMaps() != maps || input.blocks().size() != maps) {
        out.printf(Locale.ROOT, "  MISMATCH reduce %d: %d of %d maps finished, %d blocks, expected %d%n", r,
            input.finishedMaps(), input.numMaps(), input.blocks().size(), maps);
        failures++;
        continue;
      }
      for (int m = 0; m < maps; m++) {
        ReduceInput.Block b = input.blocks().get(m);
        if (b.blockId().mapId() != m || b.blockId().reduceId() != r) {
          out.println("  MISMATCH reduce " + r + ": block " + m + " is " + b.blockId());
          failures++;
        } else {
          verify(b.data(), scratch, m, r, "reduce input");
        }
      }
    }
    return seconds(start);
  }

  private void verify(ByteBuffer data, byte[] scratch, int m, int r, String what) {
    if (!content.matches(data, scratch, SHUFFLE, m, r)) {
      failures++;
      out.printf(Locale.ROOT, "  MISMATCH %s map %d reduce %d (%d bytes)%n", what, m, r, data.remaining());
    }
  }

  private static BlockId id(ScacheClient client, int map, int reduce) {
    return new BlockId(client.appId(), SHUFFLE, map, ATTEMPT, reduce);
  }

  private void row(String what, long bytes, double seconds) {
    out.printf(Locale.ROOT, "| %s | %d | %.2f | %.0f |%n", what, bytes / MIB, seconds, bytes / (double) MIB / seconds);
  }

  private static double seconds(long startNanos) {
    return (System.nanoTime() - startNanos) / 1e9;
  }

  /** JVM options of the daemons: SCACHE_JAVA_OPTS as the bin/ scripts use it, else -Xmx256m -XX:+UseSerialGC. */
  public static List<String> daemonJvmArgs() {
    String opts = System.getenv().getOrDefault("SCACHE_JAVA_OPTS", "-Xmx256m -XX:+UseSerialGC").trim();
    return opts.isEmpty() ? List.of() : List.of(opts.split("\\s+"));
  }
}
