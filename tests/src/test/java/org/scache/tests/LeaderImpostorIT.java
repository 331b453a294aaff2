package org.scache.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.scache.client.ScacheClient;
import org.scache.common.BlockId;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import org.scache.common.ha.LeaderPaths;
import org.scache.common.ha.LeaderRecord;
import org.scache.common.shuffle.PartitionerKind;
import org.scache.common.testing.Await;
import org.scache.master.ScacheMaster;
import org.scache.worker.ScacheWorker;

/**
 * A fake master announced at the leader node, against a real ZooKeeper server, a master, a worker and
 * a client over real sockets: a ZooKeeper client without the masters' identity cannot write the node
 * at all, and a record written by someone who has that identity but not the cluster secret is not
 * followed by the worker, which never connects to the fake and keeps its blocks, and follows the next
 * real leader.
 */
@Timeout(120)
class LeaderImpostorIT {
  private static final String ROOT = "/scache-impostor";
  private static final String ZOOKEEPER_AUTH = "scache:zookeeper-password";
  private static final String APP = "app-impostor";
  private static final int REDUCES = 3;

  private TestingServer zooKeeper;
  private ScacheConf base;
  private ScacheWorker worker;
  private final List<AutoCloseable> open = new ArrayList<>();
  private ServerSocket fake;
  private final AtomicInteger fakeConnections = new AtomicInteger();

  @BeforeEach
  void start() throws Exception {
    zooKeeper = new TestingServer(true);
    Path spill = Files.createTempDirectory("scache-impostor");
    base = ScacheConf.empty()
        .with(ScacheOptions.SECURITY_CLUSTER_SECRET, InProcessCluster.CLUSTER_SECRET)
        .with(ScacheOptions.MASTER_ZOOKEEPER_QUORUM, zooKeeper.getConnectString())
        .with(ScacheOptions.MASTER_ZOOKEEPER_ROOT, ROOT)
        .with(ScacheOptions.MASTER_ZOOKEEPER_AUTH, ZOOKEEPER_AUTH)
        .with(ScacheOptions.MASTER_ZOOKEEPER_SESSION_TIMEOUT.key(), "4s")
        .with(ScacheOptions.MASTER_BIND_HOST, "127.0.0.1").with(ScacheOptions.MASTER_PORT, 0)
        .with(ScacheOptions.MASTER_ADVERTISED_HOST, "127.0.0.1")
        .with(ScacheOptions.MASTER_HTTP_PORT, -1)
        .with(ScacheOptions.MASTER_HEARTBEAT_INTERVAL.key(), "200ms")
        .with(ScacheOptions.WORKER_BIND_HOST, "127.0.0.1").with(ScacheOptions.WORKER_ADVERTISED_HOST, "127.0.0.1")
        .with(ScacheOptions.WORKER_PORT, 0)
        .with(ScacheOptions.WORKER_HTTP_PORT, -1)
        .with(ScacheOptions.WORKER_MEMORY_RESERVE.key(), Long.toString(32L << 20))
        .with(ScacheOptions.WORKER_ID, "worker-0")
        .with(ScacheOptions.WORKER_SPILL_DIRS, spill.toString());
    fake = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread accepting = new Thread(() -> {
      while (!fake.isClosed()) {
        try {
          Socket s = fake.accept();
          fakeConnections.incrementAndGet();
          s.close();
        } catch (IOException e) {
          return;
        }
      }
    }, "fake-master");
    accepting.setDaemon(true);
    accepting.start();
  }

  @AfterEach
  void stop() throws Exception {
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).close();
    }
    if (worker != null) {
      worker.close();
    }
    fake.close();
    zooKeeper.close();
  }

  private ScacheMaster master() throws InterruptedException {
    ScacheMaster m = ScacheMaster.start(base);
    open.add(m);
    return m;
  }

  /** A ZooKeeper client authenticated as {@code auth}, or not at all when null. */
  private CuratorFramework zooKeeperClient(String auth) throws InterruptedException {
    CuratorFrameworkFactory.Builder b = CuratorFrameworkFactory.builder().connectString(zooKeeper.getConnectString())
        .retryPolicy(new RetryOneTime(100));
    if (auth != null) {
      b.authorization("digest", auth.getBytes(StandardCharsets.UTF_8));
    }
    CuratorFramework c = b.build();
    c.start();
    c.blockUntilConnected();
    open.add(c);
    return c;
  }

  /** A client of the worker that holds no cluster secret and finds the master through ZooKeeper. */
  private ScacheClient client() {
    ScacheConf conf = ScacheConf.empty()
        .with(ScacheOptions.MASTER_ZOOKEEPER_QUORUM, zooKeeper.getConnectString())
        .with(ScacheOptions.MASTER_ZOOKEEPER_ROOT, ROOT)
        .with(ScacheOptions.CLIENT_WORKER_ADDRESS, "127.0.0.1:" + worker.info().port())
        .with(ScacheOptions.CLIENT_RETRY_BACKOFF.key(), "50ms")
        .with(ScacheOptions.CLIENT_REQUEST_TIMEOUT.key(), "10s");
    ScacheClient c = ScacheClient.create(conf, APP, "secret".getBytes(StandardCharsets.UTF_8));
    open.add(c);
    return c;
  }

  private void awaitRegisteredWith(ScacheMaster m) {
    Await.until(() -> m.isLeader() && m.liveWorkers().size() == 1, Duration.ofSeconds(60),
        () -> "the worker did not register with the leader");
  }

  private static BlockId block(int reduce) {
    return new BlockId(APP, 0, 0, 0, reduce);
  }

  private void assertWorkerKeepsItsBlocks(ScacheClient c) {
    for (int r = 0; r < REDUCES; r++) {
      assertTrue(BlockData.matches(r, c.getBlock(block(r))), "block " + r + " is still served");
    }
  }

  @Test
  void aFakeLeaderRecord_isRefusedByZooKeeperOrIgnoredByTheWorker_whichKeepsItsBlocks() throws Exception {
    ScacheMaster first = master();
    worker = ScacheWorker.start(base);
    awaitRegisteredWith(first);
    ScacheClient c = client();
    c.registerApplication();
    c.registerShuffle(0, 1, REDUCES, PartitionerKind.HASH);
    for (int r = 0; r < REDUCES; r++) {
      c.putBlock(block(r), ByteBuffer.wrap(BlockData.bytes(r, 1000 + 100 * r)));
    }
    c.mapFinished(0, 0, 0);

    LeaderPaths paths = new LeaderPaths(ROOT);
    byte[] fakeAddress = ("127.0.0.1:" + fake.getLocalPort()).getBytes(StandardCharsets.UTF_8);
    CuratorFramework outsider = zooKeeperClient(null);
    assertThrows(KeeperException.NoAuthException.class, () -> outsider.setData().forPath(paths.leader(), fakeAddress));
    assertThrows(KeeperException.NoAuthException.class, () -> outsider.delete().forPath(paths.leader()));

    first.close();
    // someone who holds the masters' ZooKeeper password, but not the cluster secret, announces a fake master
    CuratorFramework holder = zooKeeperClient(ZOOKEEPER_AUTH);
    Await.until(() -> {
      try {
        return holder.checkExists().forPath(paths.leader()) == null;
      } catch (Exception e) {
        return false;
      }
    }, Duration.ofSeconds(10), () -> "the stopped master's record stays");
    holder.create().withMode(CreateMode.EPHEMERAL).forPath(paths.leader(), fakeAddress);
    Thread.sleep(1500);
    long session = holder.getZookeeperClient().getZooKeeper().getSessionId();
    holder.setData().forPath(paths.leader(), LeaderRecord.signed(paths.leader(), "127.0.0.1:" + fake.getLocalPort(),
        session, "not the cluster secret".getBytes(StandardCharsets.UTF_8)));
    Thread.sleep(1500);

    assertEquals(0, fakeConnections.get(), "the worker never connected to the fake master");
    assertWorkerKeepsItsBlocks(c);

    ScacheMaster next = master();
    awaitRegisteredWith(next);
    assertWorkerKeepsItsBlocks(c);
    assertEquals(REDUCES, c.getScheduleResult(0).assignments().size(), "the client follows the real leader");
    assertEquals(0, fakeConnections.get());
  }
}
