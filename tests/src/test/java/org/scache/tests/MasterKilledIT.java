package org.scache.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.scache.client.ReduceInput;
import org.scache.client.ScacheClient;
import org.scache.common.BlockId;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import org.scache.common.ha.LeaderPaths;
import org.scache.common.ha.LeaderRecord;
import org.scache.common.shuffle.PartitionerKind;
import org.scache.common.shuffle.ShufflePlacement;
import org.scache.common.testing.Await;
import org.scache.worker.ScacheWorker;

/**
 * Two masters as processes of their own, elected through a real ZooKeeper server, and the leader killed
 * with SIGKILL in the middle of a shuffle: it releases nothing, so its leader node and its place in the
 * election stay until ZooKeeper expires its session, and only then may the standby lead. Calls made
 * meanwhile wait for it; the shuffle keeps its placement, every reduce reads what its maps put, and the
 * killed master, started again, stands by.
 */
@Timeout(180)
class MasterKilledIT {
  private static final String APP = "app-killed";
  private static final String ROOT = "/scache-killed";
  private static final int MAPS = 4;
  private static final int REDUCES = 4;

  @TempDir
  Path dir;
  private TestingServer zooKeeper;
  private CuratorFramework observer;
  /** Master processes by their rpc port. */
  private final Map<Integer, Process> masters = new LinkedHashMap<>();
  private final List<ScacheWorker> workers = new ArrayList<>();

  @BeforeEach
  void start() throws Exception {
    zooKeeper = new TestingServer(true);
    observer = CuratorFrameworkFactory.newClient(zooKeeper.getConnectString(), new RetryOneTime(100));
    observer.start();
    for (int i = 0; i < 2; i++) {
      startMaster(freePort(), "master" + i);
    }
    ScacheConf conf = ScacheConf.empty()
        .with(ScacheOptions.SECURITY_CLUSTER_SECRET, InProcessCluster.CLUSTER_SECRET)
        .with(ScacheOptions.MASTER_ZOOKEEPER_QUORUM, zooKeeper.getConnectString())
        .with(ScacheOptions.MASTER_ZOOKEEPER_ROOT, ROOT)
        .with(ScacheOptions.WORKER_BIND_HOST, "127.0.0.1").with(ScacheOptions.WORKER_ADVERTISED_HOST, "127.0.0.1")
        .with(ScacheOptions.WORKER_PORT, 0)
        .with(ScacheOptions.WORKER_HTTP_PORT, -1)
        .with(ScacheOptions.WORKER_MEMORY_RESERVE.key(), Long.toString(32L << 20));
    for (int i = 0; i < 2; i++) {
      workers.add(ScacheWorker.start(conf.with(ScacheOptions.WORKER_ID, "worker-" + i)
          .with(ScacheOptions.WORKER_SPILL_DIRS, dir.resolve("spill" + i).toString())));
    }
  }

  @AfterEach
  void stop() throws Exception {
    workers.forEach(ScacheWorker::close);
    for (Process p : masters.values()) {
      p.destroy();
    }
    for (Process p : masters.values()) {
      if (!p.waitFor(10, TimeUnit.SECONDS)) {
        p.destroyForcibly();
      }
    }
    observer.close();
    zooKeeper.close();
  }

  private void startMaster(int port, String name) throws IOException {
    Path conf = dir.resolve(name + ".properties");
    Files.writeString(conf, String.join("\n",
        "scache.security.cluster.secret=" + InProcessCluster.CLUSTER_SECRET,
        "scache.master.bind.host=127.0.0.1",
        "scache.master.advertised.host=127.0.0.1",
        "scache.master.rpc.port=" + port,
        "scache.master.http.port=-1",
        "scache.master.zookeeper.quorum=" + zooKeeper.getConnectString(),
        "scache.master.zookeeper.root=" + ROOT,
        "scache.master.zookeeper.session.timeout=4s",
        "scache.master.worker.heartbeat.interval=200ms",
        "scache.master.worker.expiry=2s", ""), StandardCharsets.UTF_8);
    List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx128m",
        "-cp", System.getProperty("java.class.path"), "org.scache.master.MasterMain", "--conf", conf.toString());
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve(name + ".log").toFile())).start();
    masters.put(port, p);
  }

  /** The port of the master the leader node names, or -1 while there is none. */
  private int leaderPort() {
    try {
      String address = LeaderRecord.address(observer.getData().forPath(new LeaderPaths(ROOT).leader()));
      return Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
    } catch (Exception none) {
      return -1;
    }
  }

  /** Masters taking part in the election now. */
  private int candidates() {
    try {
      return observer.getChildren().forPath(new LeaderPaths(ROOT).election()).size();
    } catch (Exception none) {
      return 0;
    }
  }

  private ScacheClient client(int worker) {
    ScacheConf conf = ScacheConf.empty()
        .with(ScacheOptions.MASTER_ZOOKEEPER_QUORUM, zooKeeper.getConnectString())
        .with(ScacheOptions.MASTER_ZOOKEEPER_ROOT, ROOT)
        .with(ScacheOptions.CLIENT_MASTER_ADDRESS, "127.0.0.1:1")
        .with(ScacheOptions.CLIENT_WORKER_ADDRESS, "127.0.0.1:" + workers.get(worker).info().port())
        .with(ScacheOptions.CLIENT_RETRY_BACKOFF.key(), "50ms")
        .with(ScacheOptions.CLIENT_REQUEST_TIMEOUT.key(), "10s");
    return ScacheClient.create(conf, APP, "secret".getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void theLeaderKilledMidShuffle_leadsNoMoreOnceItsSessionExpires_andTheStandbyCarriesTheShuffleOn()
      throws Exception {
    Await.until(() -> leaderPort() > 0 && workers.stream().allMatch(ScacheWorker::isRegistered),
        Duration.ofSeconds(60), () -> "no leader with both workers registered; see " + dir);
    int first = leaderPort();
    try (ScacheClient c0 = client(0); ScacheClient c1 = client(1)) {
      List<ScacheClient> byWorker = List.of(c0, c1);
      c0.registerApplication();
      c0.registerShuffle(0, MAPS, REDUCES, PartitionerKind.HASH);
      for (int m = 0; m < MAPS - 1; m++) {
        runMap(byWorker.get(m % 2), m);
      }
      ShufflePlacement placed = c0.getScheduleResult(0);

      masters.get(first).destroyForcibly().waitFor();
      assertEquals(first, leaderPort(), "a killed leader's node stays until its session expires");
      // the last map finishes while the killed leader's session lives on: its call waits for the new leader
      putBlocks(c1, MAPS - 1);
      c1.mapFinished(0, MAPS - 1, 0);
      int second = leaderPort();
      assertTrue(second > 0, "a leader is published");
      assertNotEquals(first, second, "the standby leads");

      assertEquals(placed, c1.getScheduleResult(0), "the placement handed out before the kill is kept");
      for (int r = 0; r < REDUCES; r++) {
        assertReduceReads(byWorker.get(r % 2), r);
      }

      startMaster(first, "master-again");
      Await.until(() -> candidates() == 2, Duration.ofSeconds(60),
          () -> "the killed master, started again, did not take part in the election; see " + dir);
      assertEquals(second, leaderPort(), "the leader stays the leader when the killed master comes back");
      assertEquals(placed, c0.getScheduleResult(0));
    }
  }

  private static void putBlocks(ScacheClient c, int map) {
    for (int r = 0; r < REDUCES; r++) {
      c.putBlock(new BlockId(APP, 0, map, 0, r), ByteBuffer.wrap(BlockData.bytes(seed(map, r), 1500 + 200 * r)));
    }
  }

  private static void runMap(ScacheClient c, int map) {
    putBlocks(c, map);
    c.mapFinished(0, map, 0);
  }

  private static void assertReduceReads(ScacheClient c, int reduce) {
    ReduceInput in = c.getReduceInput(0, reduce);
    assertTrue(in.isComplete(), "reduce " + reduce + " complete");
    assertEquals(MAPS, in.blocks().size());
    for (ReduceInput.Block b : in.blocks()) {
      byte[] got = new byte[b.data().remaining()];
      b.data().duplicate().get(got);
      assertTrue(BlockData.matches(seed(b.blockId().mapId(), reduce), got), "block " + b.blockId()
          + " holds what its map put");
    }
  }

  private static long seed(int map, int reduce) {
    return 7919L * map + reduce;
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
