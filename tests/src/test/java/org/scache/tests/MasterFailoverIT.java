package org.scache.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.scache.client.ReduceInput;
import org.scache.client.ScacheClient;
import org.scache.common.BlockId;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import org.scache.common.shuffle.PartitionerKind;
import org.scache.common.shuffle.ShufflePlacement;
import org.scache.common.testing.Await;
import org.scache.master.ScacheMaster;
import org.scache.worker.ScacheWorker;

/**
 * Two masters elected through a real ZooKeeper server, two workers and clients that find the leader
 * there: the leader stops in the middle of a shuffle, the standby takes over, a map that finishes
 * during the failover waits for it, the shuffle keeps its placement, every reduce reads exactly what
 * its maps put, and new shuffles are registered and placed by the new leader.
 */
@Timeout(180)
class MasterFailoverIT {
  private static final String APP = "app-failover";
  private static final int MAPS = 4;
  private static final int REDUCES = 4;

  private TestingServer zooKeeper;
  private ScacheConf base;
  private final List<ScacheMaster> masters = new ArrayList<>();
  private final List<ScacheWorker> workers = new ArrayList<>();
  private Path spill;

  @BeforeEach
  void start() throws Exception {
    zooKeeper = new TestingServer(true);
    spill = Files.createTempDirectory("scache-failover");
    base = ScacheConf.empty()
        .with(ScacheOptions.SECURITY_CLUSTER_SECRET, InProcessCluster.CLUSTER_SECRET)
        .with(ScacheOptions.MASTER_ZOOKEEPER_QUORUM, zooKeeper.getConnectString())
        .with(ScacheOptions.MASTER_ZOOKEEPER_ROOT, "/scache-it")
        .with(ScacheOptions.MASTER_ZOOKEEPER_SESSION_TIMEOUT.key(), "4s")
        .with(ScacheOptions.MASTER_BIND_HOST, "127.0.0.1").with(ScacheOptions.MASTER_PORT, 0)
        .with(ScacheOptions.MASTER_ADVERTISED_HOST, "127.0.0.1")
        .with(ScacheOptions.MASTER_HTTP_PORT, 0).with(ScacheOptions.MASTER_HTTP_BIND_HOST, "127.0.0.1")
        .with(ScacheOptions.MASTER_HEARTBEAT_INTERVAL.key(), "200ms")
        .with(ScacheOptions.MASTER_WORKER_EXPIRY.key(), "2s")
        .with(ScacheOptions.WORKER_BIND_HOST, "127.0.0.1").with(ScacheOptions.WORKER_ADVERTISED_HOST, "127.0.0.1")
        .with(ScacheOptions.WORKER_PORT, 0)
        .with(ScacheOptions.WORKER_HTTP_PORT, -1)
        .with(ScacheOptions.WORKER_MEMORY_RESERVE.key(), Long.toString(32L << 20));
    masters.add(ScacheMaster.start(base));
    masters.add(ScacheMaster.start(base));
    for (int i = 0; i < 2; i++) {
      workers.add(ScacheWorker.start(base.with(ScacheOptions.WORKER_ID, "worker-" + i)
          .with(ScacheOptions.WORKER_SPILL_DIRS, spill.resolve("w" + i).toString())));
    }
  }

  @AfterEach
  void stop() throws Exception {
    workers.forEach(ScacheWorker::close);
    masters.forEach(ScacheMaster::close);
    zooKeeper.close();
  }

  private ScacheMaster awaitLeaderWithWorkers() {
    Await.until(() -> masters.stream().anyMatch(m -> m.isLeader() && m.liveWorkers().size() == workers.size())
        && workers.stream().allMatch(ScacheWorker::isRegistered), Duration.ofSeconds(60),
        () -> "no leader with both workers registered");
    return masters.stream().filter(ScacheMaster::isLeader).findFirst().orElseThrow();
  }

  /** A client of worker {@code i} that finds the master through ZooKeeper only. */
  private ScacheClient client(int i) {
    return client(i, APP);
  }

  private ScacheClient client(int i, String app) {
    ScacheConf conf = ScacheConf.empty()
        .with(ScacheOptions.MASTER_ZOOKEEPER_QUORUM, zooKeeper.getConnectString())
        .with(ScacheOptions.MASTER_ZOOKEEPER_ROOT, "/scache-it")
        .with(ScacheOptions.CLIENT_MASTER_ADDRESS, "127.0.0.1:1")
        .with(ScacheOptions.CLIENT_WORKER_ADDRESS, "127.0.0.1:" + workers.get(i).info().port())
        .with(ScacheOptions.CLIENT_RETRY_BACKOFF.key(), "50ms")
        .with(ScacheOptions.CLIENT_REQUEST_TIMEOUT.key(), "10s");
    return ScacheClient.create(conf, app, "secret".getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void theLeaderStopsMidShuffle_theStandbyTakesOver_andEveryReduceReadsWhatItsMapsPut() throws Exception {
    ScacheMaster first = awaitLeaderWithWorkers();
    ScacheMaster second = masters.get(0) == first ? masters.get(1) : masters.get(0);
    assertFalse(second.isLeader());
    try (ScacheClient c0 = client(0); ScacheClient c1 = client(1); ScacheClient other = client(0, "app-other")) {
      List<ScacheClient> byWorker = List.of(c0, c1);
      other.registerApplication();
      c0.registerApplication();
      c0.registerShuffle(0, MAPS, REDUCES, PartitionerKind.HASH);
      for (int m = 0; m < MAPS - 1; m++) {
        runMap(byWorker.get(m % 2), 0, m);
      }
      ShufflePlacement placed = c0.getScheduleResult(0);

      first.close();
      // a worker that never saw an application needs the master for its secret to check a put's proof: the put
      // waits for the new leader
      BlockId otherBlock = new BlockId("app-other", 0, 0, 0, 0);
      other.putBlock(otherBlock, BlockData.bytes(99, 777));
      // the last map finishes while no master leads: its call waits for the new leader
      putBlocks(c1, 0, MAPS - 1);
      CompletableFuture<Void> lastMap = c1.mapFinishedAsync(0, MAPS - 1, 0);
      lastMap.get();
      assertTrue(second.isLeader(), "the standby leads");
      assertTrue(BlockData.matches(99, other.getBlock(otherBlock)));
      Await.until(() -> second.liveWorkers().size() == 2, Duration.ofSeconds(30), () -> "workers did not come back");

      assertEquals(placed, c1.getScheduleResult(0), "the placement handed out before the failover is kept");
      for (int r = 0; r < REDUCES; r++) {
        assertReduceReads(byWorker.get(r % 2), 0, r);
      }

      c1.registerShuffle(1, 2, 2, PartitionerKind.HASH);
      runMap(c0, 1, 0);
      runMap(c1, 1, 1);
      assertEquals(2, c0.getScheduleResult(1).assignments().size(), "the new leader places new shuffles");
      for (int r = 0; r < 2; r++) {
        assertReduceReads(byWorker.get(r), 1, r, 2);
      }
    }
  }

  private static void putBlocks(ScacheClient c, int shuffle, int map) {
    int reduces = shuffle == 0 ? REDUCES : 2;
    for (int r = 0; r < reduces; r++) {
      c.putBlock(new BlockId(APP, shuffle, map, 0, r), ByteBuffer.wrap(BlockData.bytes(seed(shuffle, map, r),
          2000 + 300 * r + 50 * map)));
    }
  }

  private static void runMap(ScacheClient c, int shuffle, int map) {
    putBlocks(c, shuffle, map);
    c.mapFinished(shuffle, map, 0);
  }

  private static void assertReduceReads(ScacheClient c, int shuffle, int reduce) {
    assertReduceReads(c, shuffle, reduce, MAPS);
  }

  private static void assertReduceReads(ScacheClient c, int shuffle, int reduce, int maps) {
    ReduceInput in = c.getReduceInput(shuffle, reduce);
    assertTrue(in.isComplete(), "reduce " + reduce + " of shuffle " + shuffle + " complete");
    assertEquals(maps, in.blocks().size());
    for (ReduceInput.Block b : in.blocks()) {
      byte[] got = new byte[b.data().remaining()];
      b.data().duplicate().get(got);
      assertTrue(BlockData.matches(seed(shuffle, b.blockId().mapId(), reduce), got),
          "block " + b.blockId() + " holds what its map put");
    }
  }

  private static long seed(int shuffle, int map, int reduce) {
    return 1_000_003L * shuffle + 7919L * map + reduce;
  }
}
