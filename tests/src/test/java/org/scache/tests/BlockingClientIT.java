package org.scache.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.scache.client.ReduceInput;
import org.scache.client.ScacheClient;
import org.scache.common.BlockId;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import org.scache.common.network.ClientTransport;
import org.scache.common.shuffle.PartitionerKind;

/**
 * Clients on blocking connections (ClientTransport.BLOCKING, what task JVMs use) do
 * everything event-loop clients do: puts and gets through shared memory and over the socket, a
 * reduce's whole input relayed from another worker, and calls from several threads at once; and a
 * map task's calls, in a JVM of their own, without initialising Netty's buffers or the JCE (whose
 * first use costs a short-lived task JVM tens of milliseconds; Hadoop's own map tasks do not use it).
 */
@Timeout(120)
class BlockingClientIT {
  private static InProcessCluster cluster;

  @BeforeAll
  static void start() throws Exception {
    cluster = InProcessCluster.start(2, 256L << 20);
  }

  @AfterAll
  static void stop() {
    cluster.close();
  }

  private static ScacheClient blocking(int worker, String app, boolean sharedMemory) {
    ScacheConf conf = cluster.clientConf(worker).with(ScacheOptions.CLIENT_LOCAL_SHM_ENABLED, sharedMemory);
    return ScacheClient.create(conf, app, (app + "-secret").getBytes(StandardCharsets.UTF_8),
        ClientTransport.BLOCKING);
  }

  @Test
  void sharedMemoryPutAndGet_returnTheBytesExactly() {
    String app = "app-blocking-shm";
    long commitsBefore = cluster.stat(0, "shm.commit.blocks");
    int[] sizes = {1, 64, 4096, 100_000, 1 << 20, 10 << 20};
    try (ScacheClient c = blocking(0, app, true)) {
      c.registerApplication();
      List<CompletableFuture<Void>> puts = new ArrayList<>();
      for (int i = 0; i < sizes.length; i++) {
        puts.add(c.putBlockAsync(new BlockId(app, 0, i, 0, 0), ByteBuffer.wrap(BlockData.random(sizes[i], i))));
      }
      CompletableFuture.allOf(puts.toArray(CompletableFuture[]::new)).join();
      for (int i = 0; i < sizes.length; i++) {
        assertArrayEquals(BlockData.random(sizes[i], i), c.getBlock(new BlockId(app, 0, i, 0, 0)), "block " + i);
      }
      assertEquals(sizes.length, cluster.stat(0, "shm.commit.blocks") - commitsBefore, "every put went through memory");
      c.removeApplication();
    }
  }

  @Test
  void socketPutAndGet_withSharedMemoryOff_returnTheBytesExactly() {
    String app = "app-blocking-socket";
    long commitsBefore = cluster.stat(0, "shm.commit.blocks");
    try (ScacheClient c = blocking(0, app, false)) {
      c.registerApplication();
      for (int i = 0; i < 5; i++) {
        c.putBlock(new BlockId(app, 0, i, 0, 0), BlockData.random(i * 250_000, i));
      }
      for (int i = 0; i < 5; i++) {
        assertArrayEquals(BlockData.random(i * 250_000, i), c.getBlock(new BlockId(app, 0, i, 0, 0)));
      }
      c.removeApplication();
    }
    assertEquals(commitsBefore, cluster.stat(0, "shm.commit.blocks"));
  }

  @Test
  void reduceInput_putOnOneWorker_isReadWholeThroughTheOther() {
    String app = "app-blocking-reduce";
    int maps = 6;
    try (ScacheClient mapSide = blocking(0, app, true); ScacheClient reduceSide = blocking(1, app, true)) {
      mapSide.registerApplication();
      mapSide.registerShuffle(0, maps, 2, PartitionerKind.HASH);
      for (int m = 0; m < maps; m++) {
        for (int r = 0; r < 2; r++) {
          mapSide.putBlock(new BlockId(app, 0, m, 0, r), BlockData.random(300_000 + m, m * 10L + r));
        }
        mapSide.mapFinished(0, m, 0);
      }
      ReduceInput input = reduceSide.getReduceInput(0, 1);
      assertTrue(input.isComplete());
      assertEquals(maps, input.blocks().size());
      for (ReduceInput.Block b : input.blocks()) {
        int m = b.blockId().mapId();
        byte[] read = new byte[b.data().remaining()];
        b.data().duplicate().get(read);
        assertArrayEquals(BlockData.random(300_000 + m, m * 10L + 1), read, "map " + m);
      }
      mapSide.removeApplication();
    }
  }

  @Test
  void callsFromSeveralThreads_eachReadTheBlockTheyPut() throws Exception {
    String app = "app-blocking-threads";
    ExecutorService threads = Executors.newFixedThreadPool(4);
    try (ScacheClient c = blocking(0, app, true)) {
      c.registerApplication();
      List<Future<?>> done = new ArrayList<>();
      for (int i = 0; i < 32; i++) {
        int map = i;
        done.add(threads.submit(() -> {
          BlockId id = new BlockId(app, 0, map, 0, 0);
          c.putBlock(id, BlockData.random(50_000 + map, map));
          assertArrayEquals(BlockData.random(50_000 + map, map), c.getBlock(id));
        }));
      }
      for (Future<?> f : done) {
        f.get();
      }
      c.removeApplication();
    } finally {
      threads.shutdownNow();
    }
  }

  /**
   * A task JVM lives a few seconds, and initialising Netty's buffers (its platform probes, leak
   * detector and allocators) cost each one a fifth of a second of CPU: a map task's calls and a
   * reduce task's read in place, which carry no payload through the socket, must do without it.
   */
  @Test
  void tasksCalls_inJvmsOfTheirOwn_storeAndReadEveryBlock_withoutInitialisingNettyOrTheJce(@TempDir Path dir)
      throws Exception {
    String app = "app-blocking-task-jvm";
    int maps = 2;
    int reduces = 3;
    long commitsBefore = cluster.stat(0, "shm.commit.blocks");
    for (int m = 0; m < maps; m++) {
      assertNeitherNettyNorJceInitialised(runTask(dir, "map", app, m, maps, reduces));
    }
    assertEquals(maps * reduces, cluster.stat(0, "shm.commit.blocks") - commitsBefore, "every put went through memory");
    assertNeitherNettyNorJceInitialised(runTask(dir, "reduce", app, 1, maps, reduces));
    try (ScacheClient c = blocking(0, app, true)) {
      for (int r = 0; r < reduces; r++) {
        assertArrayEquals(MapTaskCalls.block(0, r), c.getBlock(new BlockId(app, 0, 0, 0, r)), "block " + r);
      }
      c.removeApplication();
    }
  }

  /** Runs {@link MapTaskCalls} in a JVM of its own on worker 0, and answers its class-initialisation log. */
  private static Path runTask(Path dir, String role, String app, int task, int maps, int reduces) throws Exception {
    Path initLog = dir.resolve(role + "-" + task + "-class-init.log");
    Path out = dir.resolve(role + "-" + task + ".log");
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xlog:class+init=info:file=" + initLog));
    cluster.clientConf(0).asMap().forEach((key, value) -> cmd.add("-D" + key + "=" + value));
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), MapTaskCalls.class.getName(), role, app,
        app + "-secret", Integer.toString(task), Integer.toString(maps), Integer.toString(reduces)));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), role + " " + task + " ended");
    assertEquals(0, p.exitValue(), Files.readString(out));
    return initLog;
  }

  private static void assertNeitherNettyNorJceInitialised(Path initLog) throws Exception {
    List<String> initialised = Files.readAllLines(initLog).stream()
        .filter(line -> line.contains("Initializing 'io/netty/") || line.contains("Initializing 'javax/crypto/"))
        .toList();
    assertEquals(List.of(), initialised, initLog.getFileName().toString());
  }
}
