package org.scache.benchmarks.store;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;
import java.util.zip.CheckedOutputStream;
import org.scache.client.ScacheClient;
import org.scache.common.BlockId;
import org.scache.common.config.ScacheConf;
import org.scache.common.network.ClientTransport;
import org.scache.common.shuffle.PartitionerKind;
import org.scache.dist.BlockContent;
import org.scache.dist.LocalCluster;
import org.scache.dist.StoreDemo;

/**
 * What SCache's client costs a task JVM, which lives a few seconds and pays for every class it
 * loads and every method it compiles. Fresh JVMs, one after another, each do what a map task does
 * with its output: the baseline writes its blocks to a local file through a checksum, as a map on
 * Hadoop's shuffle writes its output file; the SCache side opens a blocking client as a task does,
 * registers the application and the shuffle, puts the blocks through the worker's shared memory,
 * declares the map finished and closes. The sides alternate (the first changes every round), each
 * JVM reports the CPU it used in all (every thread: JIT compilers and collector too), and the
 * difference of the medians is the client's cost per task. {@code --client-classpath} adds a side
 * whose client classes come first from another build, to compare two versions in one run.
 */
public final class TaskStartBenchmark {
  private static final String USAGE = "usage: mvn -pl benchmarks/store exec:exec@task-start -Dbench.args=\"[--quick] "
      + "[--rounds N (12)] [--reduces N (24)] "
      + "[--block-kb N (170)] [--task-java-opts \"OPTS\" (-Xmx256m)] [--client-classpath PATH]\"";

  private final PrintStream out;
  private final int rounds;
  private final int reduces;
  private final int blockBytes;
  private final List<String> taskJavaOpts;
  private final String otherClientClasspath;

  private TaskStartBenchmark(int rounds, int reduces, int blockBytes, List<String> taskJavaOpts,
      String otherClientClasspath, PrintStream out) {
    this.rounds = rounds;
    this.reduces = reduces;
    this.blockBytes = blockBytes;
    this.taskJavaOpts = taskJavaOpts;
    this.otherClientClasspath = otherClientClasspath;
    this.out = out;
  }

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("--task")) {
      System.exit(Task.run(args));
    }
    int rounds = 12;
    int reduces = 24;
    int blockKib = 170;
    List<String> opts = List.of("-Xmx256m");
    String other = null;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--quick" -> rounds = 4;
        case "--rounds" -> rounds = Integer.parseInt(args[++i]);
        case "--reduces" -> reduces = Integer.parseInt(args[++i]);
        case "--block-kb" -> blockKib = Integer.parseInt(args[++i]);
        case "--task-java-opts" -> opts = List.of(args[++i].trim().split("\\s+"));
        case "--client-classpath" -> other = args[++i];
        default -> {
          System.err.println(USAGE);
          System.exit(2);
        }
      }
    }
    System.exit(new TaskStartBenchmark(rounds, reduces, blockKib * 1024, opts, other, System.out).run());
  }

  private int run() throws Exception {
    out.printf(Locale.ROOT, "task start: %d rounds of fresh JVMs (%s), each with %d blocks of %d KiB%n", rounds,
        String.join(" ", taskJavaOpts), reduces, blockBytes / 1024);
    Path dir = Files.createTempDirectory("scache-task-start-");
    LocalCluster cluster = LocalCluster.start(1, 256L << 20, StoreDemo.daemonJvmArgs(), out);
    try {
      String appId = "task-start-" + ProcessHandle.current().pid();
      String secret = HexFormat.of().formatHex(new SecureRandom().generateSeed(16));
      Map<String, List<Sample>> bySide = new LinkedHashMap<>();
      List<String> sides = new ArrayList<>(List.of("file", "scache"));
      if (otherClientClasspath != null) {
        sides.add("scache, client from " + otherClientClasspath);
      }
      sides.forEach(s -> bySide.put(s, new ArrayList<>()));
      int bad = 0;
      try (ScacheClient client = ScacheClient.create(cluster.clientConf(0), appId,
          secret.getBytes(StandardCharsets.UTF_8))) {
        cluster.awaitWorkers(client, Duration.ofSeconds(30));
        client.registerApplication();
        int maps = rounds * sides.size();
        client.registerShuffle(0, maps, reduces, PartitionerKind.HASH);
        int map = 0;
        for (int round = 0; round < rounds; round++) {
          List<String> order = new ArrayList<>(sides);
          Collections.rotate(order, round);
          for (String side : order) {
            bySide.get(side).add(runTask(cluster, dir, side, appId, secret, map, maps));
            if (!side.equals("file") && !readsBack(client, appId, map)) {
              bad++;
            }
            map++;
          }
        }
        client.removeApplication();
      }
      report(bySide);
      out.println(bad == 0 ? "verification: OK (every task's blocks read back matched)"
          : "verification: FAILED (" + bad + " tasks' blocks did not match)");
      return bad == 0 ? 0 : 1;
    } finally {
      cluster.close(false);
      SpillPutBenchmark.deleteTree(dir);
    }
  }

  /** One JVM's CPU and wall time, in milliseconds. */
  private record Sample(long cpuMillis, long wallMillis) {}

  private Sample runTask(LocalCluster cluster, Path dir, String side, String appId, String secret, int map, int maps)
      throws IOException, InterruptedException {
    String classpath = System.getProperty("java.class.path");
    if (side.startsWith("scache, client from ")) {
      classpath = otherClientClasspath + java.io.File.pathSeparator + classpath;
    }
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(taskJavaOpts);
    cluster.clientConf(0).asMap().forEach((k, v) -> cmd.add("-D" + k + "=" + v));
    cmd.addAll(List.of("-cp", classpath, TaskStartBenchmark.class.getName(), "--task",
        side.equals("file") ? "file" : "scache", appId, secret, Integer.toString(map), Integer.toString(maps),
        Integer.toString(reduces), Integer.toString(blockBytes), dir.toString()));
    Path log = dir.resolve("task-" + map + ".log");
    long start = System.nanoTime();
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new IOException("task " + map + " (" + side + ") did not end within 120 s; see " + log);
    }
    long wall = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    List<String> lines = Files.readAllLines(log);
    String last = lines.isEmpty() ? "" : lines.get(lines.size() - 1);
    if (p.exitValue() != 0 || !last.startsWith("cpu-ms ")) {
      throw new IOException("task " + map + " (" + side + ") failed with " + p.exitValue() + ": "
          + String.join("\n", lines));
    }
    return new Sample(Long.parseLong(last.substring("cpu-ms ".length()).trim()), wall);
  }

  private boolean readsBack(ScacheClient client, String appId, int map) {
    for (int r = 0; r < reduces; r++) {
      byte[] expected = Task.block(map, r, blockBytes);
      if (!ByteBuffer.wrap(expected).equals(ByteBuffer.wrap(client.getBlock(new BlockId(appId, 0, map, 0, r))))) {
        return false;
      }
    }
    return true;
  }

  private void report(Map<String, List<Sample>> bySide) {
    out.println();
    out.println("| side | JVM CPU, median | min-max | JVM wall time, median |");
    out.println("|---|---:|---:|---:|");
    Map<String, Long> cpu = new LinkedHashMap<>();
    bySide.forEach((side, samples) -> {
      List<Long> c = samples.stream().map(Sample::cpuMillis).sorted().toList();
      List<Long> w = samples.stream().map(Sample::wallMillis).sorted().toList();
      cpu.put(side, median(c));
      out.printf(Locale.ROOT, "| %s | %d ms | %d-%d ms | %d ms |%n", side, median(c), c.get(0), c.get(c.size() - 1),
          median(w));
    });
    long file = cpu.get("file");
    cpu.forEach((side, c) -> {
      if (!side.equals("file")) {
        out.printf(Locale.ROOT, "SCache's client costs a task JVM %d ms of CPU (%s against file, %.2fx)%n", c - file,
            side, c / (double) file);
      }
    });
  }

  private static long median(List<Long> sorted) {
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  /** The task JVM's side: writes or puts its blocks, then prints the CPU its process used. */
  static final class Task {
    private Task() {}

    static int run(String[] args) throws Exception {
      String side = args[1];
      String appId = args[2];
      byte[] secret = args[3].getBytes(StandardCharsets.UTF_8);
      int map = Integer.parseInt(args[4]);
      int maps = Integer.parseInt(args[5]);
      int reduces = Integer.parseInt(args[6]);
      int blockBytes = Integer.parseInt(args[7]);
      Path dir = Path.of(args[8]);
      if (side.equals("file")) {
        CRC32 crc = new CRC32();
        try (OutputStream o = new CheckedOutputStream(new BufferedOutputStream(
            Files.newOutputStream(dir.resolve("map-" + map + ".out")), 64 * 1024), crc)) {
          for (int r = 0; r < reduces; r++) {
            o.write(block(map, r, blockBytes));
          }
        }
      } else {
        ScacheConf conf = ScacheConf.empty().withSystemProperties();
        try (ScacheClient c = ScacheClient.create(conf, appId, secret, ClientTransport.BLOCKING)) {
          c.registerApplication();
          c.registerShuffle(0, maps, reduces, PartitionerKind.HASH);
          List<CompletableFuture<Void>> puts = new ArrayList<>(reduces);
          for (int r = 0; r < reduces; r++) {
            puts.add(c.putBlockAsync(new BlockId(appId, 0, map, 0, r), ByteBuffer.wrap(block(map, r, blockBytes))));
          }
          CompletableFuture.allOf(puts.toArray(CompletableFuture[]::new)).join();
          c.mapFinished(0, map, 0);
        }
      }
      System.out.println("cpu-ms " + processCpuMillis());
      return 0;
    }

    static byte[] block(int map, int reduce, int bytes) {
      byte[] b = new byte[bytes];
      new BlockContent(42).fill(b, 0, map, reduce);
      return b;
    }

    /** User and system CPU of this process so far, every thread's. */
    private static long processCpuMillis() throws IOException {
      return Math.round(SpillPutBenchmark.cpuSeconds(ProcessHandle.current().pid()) * 1000);
    }
  }
}
