package org.scache.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.scache.client.MasterCheck;
import org.scache.client.ReduceInput;
import org.scache.client.ScacheClient;
import org.scache.common.BlockId;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import org.scache.common.protocol.BlockRoom;
import org.scache.common.shuffle.PartitionerKind;
import org.scache.common.testing.Await;

/**
 * A map whose node's worker cannot hold its output (the worker's block limit, the application's share of
 * it) puts the blocks that do not fit on the cluster's other workers, and every reduce reads all of its
 * input: a shuffle wider than one worker's limit runs, within the cluster's. One wider than the cluster's is
 * found before its job starts.
 */
class FullWorkerIT {
  private static final long RESERVE = 16L << 20;
  private static final int MAPS = 2;
  private static final int REDUCES = 25;
  private InProcessCluster cluster;

  @AfterEach
  void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static byte[] block(int map, int reduce) {
    return ("map " + map + " to reduce " + reduce + " ".repeat(reduce)).getBytes(StandardCharsets.UTF_8);
  }

  @Test
  @Timeout(120)
  void mapsBeyondTheirWorkersBlockShare_putTheRestOnOtherWorkers_andEveryReduceReadsItsWholeInput() throws Exception {
    // 20 blocks per application on each worker: the 50 blocks of 2 maps on worker 0 need all three workers
    cluster = InProcessCluster.start(3, RESERVE, ScacheConf.empty().with(ScacheOptions.WORKER_BLOCKS_MAX, 40));
    String app = "app-wide";
    try (ScacheClient maps = cluster.client(0, app, "wide-secret");
        ScacheClient reduces = cluster.client(1, app, "wide-secret")) {
      maps.registerApplication();
      maps.registerShuffle(0, MAPS, REDUCES, PartitionerKind.HASH);
      for (int m = 0; m < MAPS; m++) {
        for (int r = 0; r < REDUCES; r++) {
          maps.putBlock(new BlockId(app, 0, m, 0, r), block(m, r));
        }
        maps.mapFinished(0, m, 0);
      }
      assertTrue(cluster.stat(0, "put.blocks") <= 20, "worker 0 held no more than its share: "
          + cluster.stat(0, "put.blocks"));
      assertEquals(MAPS * REDUCES, cluster.stat(0, "put.blocks") + cluster.stat(1, "put.blocks")
          + cluster.stat(2, "put.blocks"), "every block was stored once, somewhere");

      for (int r = 0; r < REDUCES; r++) {
        ReduceInput input = reduces.getReduceInput(0, r);
        assertTrue(input.isComplete(), "reduce " + r);
        Map<Integer, byte[]> byMap = new HashMap<>();
        for (ReduceInput.Block b : input.blocks()) {
          ByteBuffer data = b.data().duplicate();
          byte[] bytes = new byte[data.remaining()];
          data.get(bytes);
          byMap.put(b.blockId().mapId(), bytes);
        }
        input.release();
        assertEquals(MAPS, byMap.size(), "reduce " + r + " read one block of each map");
        for (int m = 0; m < MAPS; m++) {
          assertArrayEquals(block(m, r), byMap.get(m), "reduce " + r + ", map " + m);
        }
      }
    }
  }
  @Test
  @Timeout(60)
  void masterCheck_findsAShuffleWiderThanTheLiveWorkersHoldForOneUser() throws Exception {
    cluster = InProcessCluster.start(3, RESERVE, ScacheConf.empty().with(ScacheOptions.WORKER_BLOCKS_MAX, 40));
    ScacheConf client = cluster.clientConf(0);
    Duration wait = Duration.ofSeconds(5);
    Await.until(() -> MasterCheck.run(client, wait).room().map(r -> r.workers() == 3).orElse(false),
        Duration.ofSeconds(20), () -> "the workers did not report their limits");
    BlockRoom room = MasterCheck.run(client, wait).room().orElseThrow();
    assertEquals(60, room.forOneOwner(), "20 blocks for one user on each of 3 workers");
    assertEquals(120, room.inAll());

    assertTrue(MasterCheck.run(client, wait, 2, 30).usable(), "2 × 30 blocks fit");
    MasterCheck.Result wide = MasterCheck.run(client, wait, 2, 31);
    assertTrue(wide.problem().orElseThrow().contains("2 maps × 31 reduces put 62 blocks"), wide.toString());
    assertTrue(wide.problem().orElseThrow().contains("scache.worker.blocks.max"), wide.toString());
  }
}
