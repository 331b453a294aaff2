package org.scache.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.scache.client.ReduceInput;
import org.scache.client.ScacheClient;
import org.scache.common.BlockId;
import org.scache.common.ScacheException;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import org.scache.common.protocol.Status;
import org.scache.common.shuffle.PartitionerKind;
import org.scache.common.testing.Await;
import org.scache.common.testing.ListenPorts;

/**
 * The master and two workers as separate JVM processes, started from their main classes with a
 * properties file as an operator would: a block put on one node is read, byte for byte, on the other.
 */
@Timeout(120)
class DaemonProcessIT {
  @TempDir
  Path dir;
  private final List<Process> processes = new ArrayList<>();

  @AfterEach
  void stopAll() throws InterruptedException {
    for (Process p : processes) {
      p.destroy();
    }
    for (Process p : processes) {
      if (!p.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
        p.destroyForcibly();
      }
    }
  }

  @Test
  void masterAndTwoWorkerProcesses_blockPutOnOneNode_isReadOnTheOther() throws Exception {
    int masterPort = ListenPorts.free();
    int[] workerPorts = {ListenPorts.free(), ListenPorts.free()};
    Path conf = propertiesFile(masterPort, "scache.worker.memory.reserve.bytes=64m",
        "scache.master.worker.heartbeat.interval=200ms");
    start("master", "org.scache.master.MasterMain", conf);
    for (int i = 0; i < 2; i++) {
      start("worker" + i, "org.scache.worker.WorkerMain", conf, "-Dscache.worker.rpc.port=" + workerPorts[i],
          "-Dscache.worker.identity.id=node" + i);
    }
    ScacheConf client = ScacheConf.empty().with(ScacheOptions.CLIENT_MASTER_ADDRESS, "127.0.0.1:" + masterPort);
    String app = "app-processes";
    byte[] secret = "app-secret".getBytes(StandardCharsets.UTF_8);
    try (ScacheClient writer = ScacheClient.create(client.with(ScacheOptions.CLIENT_WORKER_ADDRESS,
        "127.0.0.1:" + workerPorts[0]), app, secret);
        ScacheClient reader = ScacheClient.create(client.with(ScacheOptions.CLIENT_WORKER_ADDRESS,
            "127.0.0.1:" + workerPorts[1]), app, secret)) {
      awaitWorkers(writer, 2);
      writer.registerApplication();
      writer.registerShuffle(0, 1, 2, PartitionerKind.HASH);
      byte[] big = BlockData.bytes(5, 3 << 20);
      writer.putBlock(new BlockId(app, 0, 0, 0, 0), big);
      writer.putBlock(new BlockId(app, 0, 0, 0, 1), new byte[0]);
      writer.mapFinished(0, 0, 0);
      assertArrayEquals(big, reader.getBlock(new BlockId(app, 0, 0, 0, 0)));
      ReduceInput in = reader.getReduceInput(0, 1);
      assertTrue(in.isComplete());
      assertEquals(0, in.totalBytes());
      java.util.Map<String, Long> stats = reader.workerStats();
      assertEquals(2L, stats.get("read.remote.blocks") + stats.get("read.prefetched.blocks"),
          "both reads crossed from node1 to node0, or found the copy prefetched to node1");
      writer.removeApplication();
    }
  }

  @Test
  void workerProcessOfSmallHeap_takesEmptyBlocksUpToItsHeapDerivedLimit_andKeepsServing() throws Exception {
    int masterPort = ListenPorts.free();
    int workerPort = ListenPorts.free();
    Path conf = propertiesFile(masterPort, "scache.worker.memory.reserve.bytes=8m");
    start("master", "org.scache.master.MasterMain", conf);
    // the worker's block limit is derived from its heap (scache.worker.blocks.max 0): half of 64 MiB in units of 32
    // bytes, a block of a map of its own taking 5, half of that for one user; the heap must hold every block the
    // limit admits
    start("worker0", "org.scache.worker.WorkerMain", conf, "-Xmx64m", "-Dscache.worker.rpc.port=" + workerPort,
        "-Dscache.worker.identity.id=node0");
    ScacheConf client = ScacheConf.empty().with(ScacheOptions.CLIENT_MASTER_ADDRESS, "127.0.0.1:" + masterPort)
        .with(ScacheOptions.CLIENT_WORKER_ADDRESS, "127.0.0.1:" + workerPort);
    long[] accepted = new long[2];
    try (ScacheClient first = ScacheClient.create(client, "app-many-0", "s0".getBytes(StandardCharsets.UTF_8));
        ScacheClient second = ScacheClient.create(client, "app-many-1", "s1".getBytes(StandardCharsets.UTF_8))) {
      awaitWorkers(first, 1);
      ScacheClient[] clients = {first, second};
      for (int a = 0; a < 2; a++) {
        clients[a].registerApplication();
        accepted[a] = putEmptyBlocksUntilRefused(clients[a], "app-many-" + a);
      }
      long limit = first.workerStats().get("store.blocks");
      assertEquals(accepted[0] + accepted[1], limit, "every accepted block is held");
      assertTrue(accepted[0] >= 50_000 && accepted[0] == accepted[1],
          "each user holds half of a 64 MiB worker's limit, about 104,857 blocks of a map each: " + accepted[0] + ", "
              + accepted[1]);
      assertEquals(0, second.getBlock(new BlockId("app-many-1", 0, 0, 0, 0)).length, "a block held at the limit");
      first.removeApplication();
      try (ScacheClient later = ScacheClient.create(client, "app-later", "s2".getBytes(StandardCharsets.UTF_8))) {
        later.registerApplication();
        byte[] data = "served after the flood".getBytes(StandardCharsets.UTF_8);
        later.putBlock(new BlockId("app-later", 0, 0, 0, 0), data);
        assertArrayEquals(data, later.getBlock(new BlockId("app-later", 0, 0, 0, 0)));
      }
      second.removeApplication();
    }
    assertTrue(processes.get(1).isAlive(), "the worker process lives");
    String log = Files.readString(dir.resolve("worker0.log"));
    assertFalse(log.contains("OutOfMemoryError"), log);
  }

  /** Puts empty blocks of one map each, many in flight, until the worker refuses one; how many it took. */
  private static long putEmptyBlocksUntilRefused(ScacheClient c, String app) throws InterruptedException {
    Semaphore inFlight = new Semaphore(256);
    AtomicLong taken = new AtomicLong();
    AtomicReference<Throwable> refused = new AtomicReference<>();
    ByteBuffer empty = ByteBuffer.allocate(0);
    for (int m = 0; refused.get() == null && m < 1_000_000; m++) {
      inFlight.acquire();
      c.putBlockAsync(new BlockId(app, 0, m, 0, 0), empty).whenComplete((v, e) -> {
        if (e == null) {
          taken.incrementAndGet();
        } else {
          refused.compareAndSet(null, e);
        }
        inFlight.release();
      });
    }
    inFlight.acquire(256);
    Throwable e = refused.get();
    while (e instanceof CompletionException && e.getCause() != null) {
      e = e.getCause();
    }
    assertTrue(e instanceof ScacheException s && s.status() == Status.LIMIT_EXCEEDED, String.valueOf(e));
    return taken.get();
  }

  /** The daemons' properties file, as an operator writes it for a master and workers on this host, and {@code more}. */
  private Path propertiesFile(int masterPort, String... more) throws IOException {
    List<String> lines = new ArrayList<>(List.of(
        "scache.security.cluster.secret=process-test-secret",
        "scache.master.bind.host=127.0.0.1",
        "scache.master.rpc.port=" + masterPort,
        "scache.worker.bind.host=127.0.0.1",
        "scache.worker.advertised.host=127.0.0.1",
        "scache.worker.master.address=127.0.0.1:" + masterPort));
    lines.addAll(List.of(more));
    lines.add("");
    Path conf = dir.resolve("scache.properties");
    Files.writeString(conf, String.join("\n", lines), StandardCharsets.UTF_8);
    return conf;
  }

  private void start(String name, String mainClass, Path conf, String... props) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx128m");
    cmd.addAll(List.of(props));
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass, "--conf", conf.toString()));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve(name + ".log").toFile())
        .start();
    processes.add(p);
  }

  private void awaitWorkers(ScacheClient c, int n) {
    Await.until(() -> Await.quietly(() -> c.workers().size() >= n), Duration.ofSeconds(60), this::daemonLogs);
  }

  private String daemonLogs() {
    StringBuilder logs = new StringBuilder("workers did not register:\n");
    for (String f : new String[] {"master", "worker0", "worker1"}) {
      Path log = dir.resolve(f + ".log");
      try {
        logs.append("--- ").append(f).append('\n').append(Files.exists(log) ? Files.readString(log) : "");
      } catch (java.io.IOException e) {
        logs.append("(unreadable: ").append(e.getMessage()).append(")\n");
      }
    }
    return logs.toString();
  }
}
