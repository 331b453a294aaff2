package org.scache.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.scache.client.ReduceInput;
import org.scache.client.ScacheClient;
import org.scache.common.BlockId;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import org.scache.common.shuffle.PartitionerKind;

/**
 * Clients on blocking connections (scache.client.transport.mode=blocking, what task JVMs use) do
 * everything event-loop clients do: puts and gets through shared memory and over the socket, a
 * reduce's whole input relayed from another worker, and calls from several threads at once.
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
    ScacheConf conf = cluster.clientConf(worker).with(ScacheOptions.CLIENT_TRANSPORT_MODE, "blocking")
        .with(ScacheOptions.CLIENT_LOCAL_SHM_ENABLED, sharedMemory);
    return ScacheClient.create(conf, app, (app + "-secret").getBytes(StandardCharsets.UTF_8));
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
}
