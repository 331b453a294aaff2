package org.scache.benchmarks.store;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.StringJoiner;
import java.util.concurrent.CompletableFuture;
import org.scache.client.ScacheClient;
import org.scache.common.BlockId;
import org.scache.common.auth.Credentials;
import org.scache.common.network.ConnectionPool;
import org.scache.common.network.ScacheConnection;
import org.scache.common.network.TransportSettings;
import org.scache.common.protocol.FetchBlocks;
import org.scache.common.shuffle.PartitionerKind;
import org.scache.dist.DaemonProcess;
import org.scache.dist.LocalCluster;
import org.scache.dist.StoreDemo;
import org.scache.dist.Throughput;

/**
 * Measures the block store on this machine in one run and prints markdown tables: local put and
 * get against a plain memory copy, a worker-to-worker fetch against a raw loopback TCP stream, and
 * a worker's resident memory against its reserve. The master and the two workers are child
 * processes (so their memory can be read), the client runs here; everything uses loopback.
 */
public final class StoreBenchmark {
  static final int[] LOCAL_SIZES = {4 << 10, 64 << 10, 1 << 20, 8 << 20};
  static final int[] REMOTE_SIZES = {64 << 10, 1 << 20, 8 << 20};
  private static final int IN_FLIGHT = 8;
  private static final long MIB = 1 << 20;
  private static final long RESERVE = 1L << 30;
  private static final long RSS_SLACK = 128 * MIB;
  private static final long ROUND_BYTES = 384 * MIB;
  private static final int ROUND_MAX_BLOCKS = 16384;
  private static final long WORKING_SET_BYTES = 128 * MIB;
  private static final int WORKING_SET_MAX_BLOCKS = 2048;
  private static final int REDUCES = 8;
  private static final Duration FREE_TIMEOUT = Duration.ofSeconds(15);

  private final PrintStream out;
  private final Duration warmup;
  private final Duration measured;
  private final String command;
  private final List<String> daemonOpts;
  private final byte[][] sources = new byte[4][];
  private final StoreResults results = new StoreResults();
  private ScacheClient clientA;
  private ScacheClient clientB;
  private int nextShuffle;

  private StoreBenchmark(PrintStream out, Duration warmup, Duration measured, List<String> daemonOpts,
      String command) {
    this.out = out;
    this.daemonOpts = daemonOpts;
    this.warmup = warmup;
    this.measured = measured;
    this.command = command;
  }

  public static void main(String[] args) {
    boolean quick = false;
    double seconds = -1;
    List<String> daemonOpts = StoreDemo.daemonJvmArgs();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--quick" -> quick = true;
        case "--seconds" -> seconds = i + 1 < args.length ? Double.parseDouble(args[++i]) : -1;
        case "--daemon-opts" -> daemonOpts = i + 1 < args.length ? splitOptions(args[++i]) : daemonOpts;
        default -> {
          System.err.println("usage: mvn -pl benchmarks/store exec:exec@store -Dbench.args=\"[--quick] [--seconds "
              + "PER_PHASE] [--daemon-opts 'JVM OPTIONS']\"\n"
              + "  default: 2 s per phase (about 1.5 minutes); --quick: 0.3 s per phase (about 20 s)\n"
              + "  --daemon-opts: JVM options of the master and workers (default: $SCACHE_JAVA_OPTS or -Xmx256m "
                  + "-XX:+UseSerialGC)");
          System.exit(2);
        }
      }
    }
    double phase = seconds > 0 ? seconds : quick ? 0.3 : 2.0;
    Duration measured = Duration.ofMillis((long) (phase * 1000));
    Duration warmup = Duration.ofMillis((long) (Math.min(0.5, phase / 3) * 1000));
    StringJoiner given = new StringJoiner(" ");
    for (String a : args) {
      given.add(a.contains(" ") ? "'" + a + "'" : a);
    }
    String command = "mvn -B -ntp -q -pl benchmarks/store exec:exec@store -Dbench.args=\"" + given + "\"";
    try {
      new StoreBenchmark(System.out, warmup, measured, daemonOpts, command).run();
      System.exit(0);
    } catch (Exception e) {
      System.err.println("store benchmark FAILED: " + (e instanceof IllegalStateException ? e.getMessage() : e));
      e.printStackTrace(System.err);
      System.exit(1);
    }
  }

  private void run() throws Exception {
    long started = System.nanoTime();
    out.println("# SCache store benchmark");
    out.println();
    environment(daemonOpts).forEach((k, v) -> out.println("- " + k + ": " + v));
    out.printf(Locale.ROOT, "- phases: %d ms warm-up + %d ms measured each; %d async calls in flight or 1 (sync)%n",
        warmup.toMillis(), measured.toMillis(), IN_FLIGHT);
    out.println("- GB/s are 10^9 bytes per second");
    out.println();
    SplittableRandom random = new SplittableRandom(42);
    for (int i = 0; i < sources.length; i++) {
      sources[i] = new byte[8 << 20];
      random.nextBytes(sources[i]);
    }

    progress("baseline: memory copy byte[] -> direct ByteBuffer");
    for (int size : LOCAL_SIZES) {
      results.memcpy.put(size, Baselines.memcpy(size, warmup, measured));
      results.memcpyOutOfCache.put(size, Baselines.memcpyOutOfCache(size, ROUND_BYTES, warmup, measured));
    }
    progress("baseline: raw loopback TCP, one stream of 1 MiB writes");
    results.rawTcp = Baselines.rawTcp(warmup, measured);

    progress("starting a master and two workers (1024 MiB reserve each) as child processes");
    LocalCluster cluster = LocalCluster.start(2, RESERVE, daemonOpts, out);
    boolean completed = false;
    try {
      byte[] secret = "store-benchmark-secret".getBytes(StandardCharsets.UTF_8);
      String appId = "store-bench-" + ProcessHandle.current().pid();
      try (ScacheClient a = ScacheClient.create(cluster.clientConf(0), appId, secret);
          ScacheClient b = ScacheClient.create(cluster.clientConf(1), appId, secret)) {
        clientA = a;
        clientB = b;
        cluster.awaitWorkers(a, Duration.ofSeconds(30));
        a.registerApplication();
        results.memory.add(memory(cluster.worker(0), "worker1", "started, idle"));
        results.memory.add(memory(cluster.worker(1), "worker2", "started, idle"));
        warmUp();
        localPhases();
        remotePhases();
        workerFetchPhases(cluster);
        memoryPhase(cluster);
        a.removeApplication();
      }
      completed = true;
    } finally {
      cluster.close(!completed);
      if (!completed) {
        System.err.println("the daemons' logs are kept in " + cluster.dir().resolve("logs"));
      }
    }
    results.print(out, RESERVE + RSS_SLACK);
    out.println();
    out.printf(Locale.ROOT, "Whole run: %.0f s. Command: `%s`%n", (System.nanoTime() - started) / 1e9, command);
  }

  // ---------------------------------------------------------------- phases

  /** Lets both JITs (client here, workers there) compile the put, get and fetch paths. */
  private void warmUp() {
    progress("warm-up");
    Duration slice = warmup.multipliedBy(2);
    int ws = workingSet(clientA, 1 << 20, true);
    get(clientA, ws, 1 << 20, IN_FLIGHT, Duration.ZERO, slice);
    get(clientB, ws, 1 << 20, IN_FLIGHT, Duration.ZERO, slice);
    free(clientA, ws);
    putPhase(64 << 10, IN_FLIGHT, slice);
  }

  private void localPhases() {
    for (int size : LOCAL_SIZES) {
      progress("local put " + label(size));
      results.localPut.put(key(size, 1), putPhase(size, 1, measured));
      results.localPut.put(key(size, IN_FLIGHT), putPhase(size, IN_FLIGHT, measured));
    }
    for (int size : LOCAL_SIZES) {
      progress("local get " + label(size));
      int ws = workingSet(clientA, size, false);
      results.localGet.put(key(size, 1), get(clientA, ws, size, 1, warmup, measured));
      results.localGet.put(key(size, IN_FLIGHT), get(clientA, ws, size, IN_FLIGHT, warmup, measured));
      free(clientA, ws);
    }
  }

  private void remotePhases() {
    for (int size : REMOTE_SIZES) {
      progress("remote fetch " + label(size) + ": stored on worker1, read through worker2");
      int ws = workingSet(clientA, size, true);
      results.remote.put(key(size, 1), get(clientB, ws, size, 1, warmup, measured));
      results.remote.put(key(size, IN_FLIGHT), get(clientB, ws, size, IN_FLIGHT, warmup, measured));
      free(clientA, ws);
    }
  }

  /**
   * Worker-to-worker fetch as a prefetching worker does it: FETCH_BLOCKS signed with the cluster
   * secret, straight to the holding worker, over the same transport the workers use.
   */
  private void workerFetchPhases(LocalCluster cluster) {
    Credentials daemon = Credentials.cluster(cluster.clusterSecret().getBytes(StandardCharsets.UTF_8));
    try (ConnectionPool pool = new ConnectionPool(TransportSettings.defaults(), "bench-fetch")) {
      ScacheConnection holder = pool.get("127.0.0.1", cluster.worker(0).port()).join();
      for (int size : REMOTE_SIZES) {
        progress("worker-to-worker fetch " + label(size) + ": FETCH_BLOCKS of " + FETCH_BATCH
            + " blocks from worker1, signed as a worker");
        int ws = workingSet(clientA, size, true);
        int blocks = (int) Math.max(16, Math.min(WORKING_SET_MAX_BLOCKS, WORKING_SET_BYTES / size));
        results.workerFetch.put(key(size, IN_FLIGHT), CallLoop.run(IN_FLIGHT, warmup, measured, Integer.MAX_VALUE,
            (long) size * FETCH_BATCH, i -> {
              List<BlockId> ids = new ArrayList<>(FETCH_BATCH);
              for (int k = 0; k < FETCH_BATCH; k++) {
                ids.add(id(ws, (i * FETCH_BATCH + k) % blocks));
              }
              return holder.call(new FetchBlocks(ids), Optional.of(daemon), Duration.ofSeconds(60))
                  .thenAccept(r -> {
                    int n = r.payload().readableBytes();
                    r.payload().release();
                    if (n != size * FETCH_BATCH) {
                      throw new IllegalStateException("fetched " + n + " bytes, expected " + size * FETCH_BATCH);
                    }
                  });
            }));
        free(clientA, ws);
      }
    }
  }

  /** Fills 90% of worker1's reserve, reads it all through worker2, and records both workers' memory. */
  private void memoryPhase(LocalCluster cluster) {
    int size = 1 << 20;
    int blocks = (int) (RESERVE * 9 / 10 / size) / REDUCES * REDUCES;
    progress("memory: filling " + blocks + " MiB of worker1's " + RESERVE / MIB + " MiB reserve");
    int shuffle = nextShuffle++;
    clientA.registerShuffle(shuffle, blocks / REDUCES, REDUCES, PartitionerKind.HASH);
    results.bulkPut = CallLoop.run(IN_FLIGHT, Duration.ZERO, Duration.ofHours(1), blocks, size,
        i -> clientA.putBlockAsync(id(shuffle, i), ByteBuffer.wrap(sources[i % sources.length], 0, size)));
    finishMaps(shuffle, blocks);
    results.memory.add(memory(cluster.worker(0), "worker1", "after putting " + blocks + " MiB (the put phase)"));
    progress("memory: reading all " + blocks + " MiB through worker2");
    results.bulkRemote = CallLoop.run(IN_FLIGHT, Duration.ZERO, Duration.ofHours(1), blocks, size,
        i -> clientB.getBlockAsync(id(shuffle, i)).thenAccept(bb -> requireSize(bb, size)));
    results.memory.add(memory(cluster.worker(0), "worker1", "after serving all of it to worker2"));
    results.memory.add(memory(cluster.worker(1), "worker2", "after fetching and relaying all of it"));
    free(clientA, shuffle);
  }

  // ---------------------------------------------------------------- building blocks

  /**
   * Puts blocks of {@code size} for the measured time, in rounds that each fill at most
   * {@link #ROUND_BYTES} of the reserve and are freed before the next; a first round warms up.
   */
  private Throughput putPhase(int size, int inFlight, Duration duration) {
    putRound(size, inFlight, warmup);
    Throughput total = Throughput.NONE;
    while (total.nanos() < duration.toNanos()) {
      total = total.plus(putRound(size, inFlight, duration.minusNanos(total.nanos())));
    }
    return total;
  }

  private Throughput putRound(int size, int inFlight, Duration duration) {
    int cap = (int) Math.min(ROUND_MAX_BLOCKS, ROUND_BYTES / size) / REDUCES * REDUCES;
    int shuffle = nextShuffle++;
    clientA.registerShuffle(shuffle, cap / REDUCES, REDUCES, PartitionerKind.HASH);
    Throughput t = CallLoop.run(inFlight, Duration.ZERO, duration, cap, size,
        i -> clientA.putBlockAsync(id(shuffle, i), ByteBuffer.wrap(sources[i % sources.length], 0, size)));
    free(clientA, shuffle);
    return t;
  }

  /** Puts a working set of blocks of {@code size} through {@code client}; returns its shuffle id. */
  private int workingSet(ScacheClient client, int size, boolean finishMaps) {
    int blocks = (int) Math.max(16, Math.min(WORKING_SET_MAX_BLOCKS, WORKING_SET_BYTES / size));
    int shuffle = nextShuffle++;
    client.registerShuffle(shuffle, blocks / REDUCES, REDUCES, PartitionerKind.HASH);
    CallLoop.run(IN_FLIGHT, Duration.ZERO, Duration.ofHours(1), blocks, size,
        i -> client.putBlockAsync(id(shuffle, i), ByteBuffer.wrap(sources[i % sources.length], 0, size)));
    if (finishMaps) {
      // block sizes reach the master with MAP_FINISHED at the latest; remote reads locate blocks there
      finishMaps(shuffle, blocks);
    }
    byte[] first = clientA.getBlock(id(shuffle, 0));
    if (!Arrays.equals(first, 0, size, sources[0], 0, size)) {
      throw new IllegalStateException("block " + id(shuffle, 0) + " came back with different bytes");
    }
    return shuffle;
  }

  private void finishMaps(int shuffle, int blocks) {
    List<CompletableFuture<Void>> done = new ArrayList<>();
    for (int m = 0; m < blocks / REDUCES; m++) {
      done.add(clientA.mapFinishedAsync(shuffle, m, 0));
    }
    CompletableFuture.allOf(done.toArray(CompletableFuture[]::new)).join();
  }

  private Throughput get(ScacheClient client, int shuffle, int size, int inFlight, Duration warm, Duration duration) {
    int blocks = (int) Math.max(16, Math.min(WORKING_SET_MAX_BLOCKS, WORKING_SET_BYTES / size));
    return CallLoop.run(inFlight, warm, duration, Integer.MAX_VALUE, size,
        i -> client.getBlockAsync(id(shuffle, i % blocks)).thenAccept(b -> requireSize(b, size)));
  }

  /** Unregisters the shuffle and waits until worker1 has given its memory back. */
  private void free(ScacheClient client, int shuffle) {
    client.unregisterShuffle(shuffle);
    long deadline = System.nanoTime() + FREE_TIMEOUT.toNanos();
    while (clientA.workerStats().getOrDefault("memory.used.bytes", 0L) > 0) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("worker1 still uses " + clientA.workerStats().get("memory.used.bytes")
            + " bytes " + FREE_TIMEOUT.toSeconds() + " s after shuffle " + shuffle + " was unregistered");
      }
      try {
        Thread.sleep(5);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted", e);
      }
    }
  }

  private BlockId id(int shuffle, int i) {
    return new BlockId(clientA.appId(), shuffle, i / REDUCES, 0, i % REDUCES);
  }

  private static void requireSize(ByteBuffer b, int size) {
    if (b.remaining() != size) {
      throw new IllegalStateException("expected a block of " + size + " bytes, got " + b.remaining());
    }
  }

  private static StoreResults.MemorySample memory(DaemonProcess p, String worker, String when) {
    return new StoreResults.MemorySample(worker, when, p.residentBytes().orElse(-1),
        p.peakResidentBytes().orElse(-1), p.residentSharedBytes().orElse(-1), p.residentAnonymousBytes().orElse(-1));
  }

  static final int FETCH_BATCH = 4;

  static int key(int size, int inFlight) {
    return size * 16 + inFlight;
  }

  static String label(int size) {
    return size >= MIB ? size / MIB + " MiB" : size / 1024 + " KiB";
  }

  private void progress(String what) {
    out.println("... " + what);
  }

  private static Map<String, String> environment(List<String> daemonOpts) {
    Map<String, String> env = new LinkedHashMap<>();
    env.put("date", LocalDate.now().toString());
    env.put("cpu", firstValue(Path.of("/proc/cpuinfo"), "model name").orElse(System.getProperty("os.arch"))
        + ", " + Runtime.getRuntime().availableProcessors() + " cores visible");
    env.put("memory", firstValue(Path.of("/proc/meminfo"), "MemTotal").orElse("unknown"));
    env.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
    env.put("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.version")
        + ", client heap max " + Runtime.getRuntime().maxMemory() / MIB + " MiB");
    env.put("daemon JVM options", String.join(" ", daemonOpts));
    return env;
  }

  private static List<String> splitOptions(String options) {
    return options.isBlank() ? List.of() : List.of(options.trim().split("\\s+"));
  }

  private static java.util.Optional<String> firstValue(Path file, String field) {
    try {
      return Files.readAllLines(file).stream().filter(l -> l.startsWith(field)).findFirst()
          .map(l -> l.substring(l.indexOf(':') + 1).trim());
    } catch (IOException e) {
      return java.util.Optional.empty();
    }
  }
}
