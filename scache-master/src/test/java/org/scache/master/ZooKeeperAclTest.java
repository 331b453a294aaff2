package org.scache.master;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.server.auth.DigestAuthenticationProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.scache.common.ScacheException;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import org.scache.common.ha.LeaderPaths;
import org.scache.common.ha.LeaderRecord;
import org.scache.common.ha.Locator;
import org.scache.common.protocol.RegisterApplication;
import org.scache.common.protocol.Status;
import org.scache.common.testing.Await;

/**
 * The masters' nodes in a real ZooKeeper server (Curator's testing server) against clients that are
 * not the masters: without the masters' identity nothing can be read from the kept state nor written
 * at the leader node; a record at the leader node that does not prove the cluster secret is not
 * followed by a daemon, and one in an open node not by a client; a root left open is taken back, and
 * one owned by another identity keeps a master from starting.
 */
@Timeout(120)
class ZooKeeperAclTest {
  private static final String CLUSTER = "cluster";
  private static final LeaderPaths PATHS = new LeaderPaths("/scache");
  private static final byte[] APP_SECRET = "app-secret".getBytes(StandardCharsets.UTF_8);
  private static final String EVIL = "evil.example:4000";

  private TestingServer zooKeeper;
  private final List<AutoCloseable> open = new ArrayList<>();

  @BeforeEach
  void startZooKeeper() throws Exception {
    zooKeeper = new TestingServer(true);
  }

  @AfterEach
  void stop() throws Exception {
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).close();
    }
    zooKeeper.close();
  }

  private ScacheConf conf() {
    return ScacheConf.empty()
        .with(ScacheOptions.SECURITY_CLUSTER_SECRET, CLUSTER)
        .with(ScacheOptions.MASTER_BIND_HOST, "127.0.0.1").with(ScacheOptions.MASTER_PORT, 0)
        .with(ScacheOptions.MASTER_HTTP_PORT, -1)
        .with(ScacheOptions.MASTER_ADVERTISED_HOST, "127.0.0.1")
        .with(ScacheOptions.MASTER_ZOOKEEPER_QUORUM, zooKeeper.getConnectString())
        .with(ScacheOptions.MASTER_ZOOKEEPER_ROOT, PATHS.root())
        .with(ScacheOptions.MASTER_ZOOKEEPER_SESSION_TIMEOUT.key(), "4s");
  }

  private ScacheMaster leader(ScacheConf conf) throws InterruptedException {
    ScacheMaster m = ScacheMaster.start(conf);
    open.add(m);
    Await.until(m::isLeader, Duration.ofSeconds(30), () -> "the master did not take the lead");
    return m;
  }

  /** A ZooKeeper client that authenticates as {@code auth} (user:password), or not at all when null. */
  private CuratorFramework outsider(String auth) throws InterruptedException {
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

  /** How a worker (holding the cluster secret) or a client (not) finds the master. */
  private Locator locator(boolean daemon) {
    ScacheConf c = conf();
    Locator l = Locator.master(daemon ? c : c.with(ScacheOptions.SECURITY_CLUSTER_SECRET, ""),
        ScacheOptions.CLIENT_MASTER_ADDRESS);
    open.add(l);
    return l;
  }

  private static String appNode(String appId) {
    return PATHS.state() + "/applications/"
        + Base64.getUrlEncoder().withoutPadding().encodeToString(appId.getBytes(StandardCharsets.UTF_8));
  }

  private static void assertRefused(Class<? extends KeeperException> expected, ZooKeeperCall call) {
    assertThrows(expected, call::run);
  }

  private static void assertNotFollowed(Locator locator) {
    ScacheException e = assertThrows(ScacheException.class, locator::address);
    assertEquals(Status.NOT_LEADER, e.status(), e.getMessage());
  }

  @FunctionalInterface
  private interface ZooKeeperCall {
    void run() throws Exception;
  }

  @Test
  void withoutTheMastersIdentity_noClientReadsTheSecretsNorWritesTheLeaderNode() throws Exception {
    ScacheMaster master = leader(conf());
    master.serveAuthorized(new RegisterApplication("app", APP_SECRET));
    String address = "127.0.0.1:" + master.port();

    for (CuratorFramework other : List.of(outsider(null), outsider("someone:else"))) {
      assertRefused(KeeperException.NoAuthException.class, () -> other.getData().forPath(appNode("app")));
      assertRefused(KeeperException.NoAuthException.class, () -> other.getChildren().forPath(PATHS.state()));
      assertEquals(address, LeaderRecord.address(other.getData().forPath(PATHS.leader())),
          "the leader's record is readable by all");
      assertRefused(KeeperException.NoAuthException.class,
          () -> other.setData().forPath(PATHS.leader(), EVIL.getBytes(StandardCharsets.UTF_8)));
      assertRefused(KeeperException.NoAuthException.class, () -> other.delete().forPath(PATHS.leader()));
      assertRefused(KeeperException.NoAuthException.class, () -> other.create().forPath(PATHS.root() + "/other"));
      assertRefused(KeeperException.NoAuthException.class,
          () -> other.create().withMode(CreateMode.EPHEMERAL_SEQUENTIAL).forPath(PATHS.election() + "/latch-"));
      assertRefused(KeeperException.NoAuthException.class,
          () -> other.setACL().withACL(ZooDefs.Ids.OPEN_ACL_UNSAFE).forPath(PATHS.root()));
    }
    assertEquals(address, locator(true).address(), "a worker follows the master's signed record");
    assertEquals(address, locator(false).address(), "a client follows the master's closed node");

    CuratorFramework masters = outsider(new String(ZooKeeperIdentity.derived(
        CLUSTER.getBytes(StandardCharsets.UTF_8)).authBytes(), StandardCharsets.UTF_8));
    assertArrayEquals(APP_SECRET, masters.getData().forPath(appNode("app")),
        "without scache.master.zookeeper.auth the identity comes from the cluster secret");
  }

  @Test
  void aLeaderRecordNotSignedWithTheClusterSecret_isNotFollowedByAWorker_evenFromTheMastersIdentity()
      throws Exception {
    String zkAuth = "scache:zk-password";
    ScacheMaster master = leader(conf().with(ScacheOptions.MASTER_ZOOKEEPER_AUTH, zkAuth));
    String address = "127.0.0.1:" + master.port();
    Locator worker = locator(true);
    assertEquals(address, worker.address());

    // someone who has the ZooKeeper password but not the cluster secret
    CuratorFramework holder = outsider(zkAuth);
    long session = holder.getZookeeperClient().getZooKeeper().getSessionId();
    byte[] genuine = holder.getData().forPath(PATHS.leader());
    holder.setData().forPath(PATHS.leader(), EVIL.getBytes(StandardCharsets.UTF_8));
    Await.until(() -> {
      try {
        worker.address();
        return false;
      } catch (ScacheException e) {
        return e.status() == Status.NOT_LEADER;
      }
    }, Duration.ofSeconds(10), () -> "the worker still follows " + worker.address());
    assertNotFollowed(worker);

    holder.setData().forPath(PATHS.leader(),
        LeaderRecord.signed(PATHS.leader(), EVIL, session, "another secret".getBytes(StandardCharsets.UTF_8)));
    assertNotFollowed(worker);

    // the master's own record, copied into a node of another session
    holder.delete().forPath(PATHS.leader());
    holder.create().withMode(CreateMode.EPHEMERAL).forPath(PATHS.leader(), genuine);
    assertNotFollowed(worker);
    assertTrue(master.isLeader());
  }

  @Test
  void aClientDoesNotFollowALeaderNodeThatAnyoneCouldHaveWritten_andFollowsTheMasterOnceItTakesTheRootBack()
      throws Exception {
    CuratorFramework other = outsider(null);
    other.create().forPath(PATHS.root());
    other.create().withMode(CreateMode.EPHEMERAL).forPath(PATHS.leader(), EVIL.getBytes(StandardCharsets.UTF_8));
    assertNotFollowed(locator(false));
    assertNotFollowed(locator(true));

    Locator client = locator(false);
    ScacheMaster master = leader(conf());
    String address = "127.0.0.1:" + master.port();
    Await.until(() -> {
      try {
        return client.address().equals(address);
      } catch (ScacheException e) {
        return false;
      }
    }, Duration.ofSeconds(10), () -> "the client does not follow the master");
    assertEquals(address, locator(true).address());
  }

  @Test
  void aRootLeftOpen_isTakenBack_andNodesTheMastersCannotChangeAreDeleted() throws Exception {
    CuratorFramework other = outsider(null);
    other.create().creatingParentsIfNeeded().forPath(appNode("planted"), APP_SECRET);
    other.create().forPath(PATHS.leader(), EVIL.getBytes(StandardCharsets.UTF_8));
    Id attacker = new Id("digest", DigestAuthenticationProvider.generateDigest("attacker:pw"));
    other.create().withACL(new ArrayList<>(List.of(new ACL(ZooDefs.Perms.ALL, attacker))))
        .forPath(appNode("foreign"));
    other.create().forPath(PATHS.root() + "/unrelated");

    ScacheMaster master = leader(conf());
    ZooKeeperIdentity identity = ZooKeeperIdentity.derived(CLUSTER.getBytes(StandardCharsets.UTF_8));
    ClusterAcl acl = new ClusterAcl(PATHS, identity);
    CuratorFramework masters = outsider(new String(identity.authBytes(), StandardCharsets.UTF_8));
    for (String path : List.of(PATHS.root(), PATHS.leader(), PATHS.state(), appNode("planted"))) {
      assertEquals(new HashSet<>(acl.getAclForPath(path)), new HashSet<>(masters.getACL().forPath(path)), path);
    }
    assertRefused(KeeperException.NoAuthException.class, () -> other.getData().forPath(appNode("planted")));
    assertNull(other.checkExists().forPath(appNode("foreign")), "a node the masters cannot change is deleted");
    assertEquals(new HashSet<>(ZooDefs.Ids.OPEN_ACL_UNSAFE),
        new HashSet<>(other.getACL().forPath(PATHS.root() + "/unrelated")), "a node the masters do not read is left");
    assertEquals("127.0.0.1:" + master.port(), locator(true).address());
  }

  @Test
  void aRootOwnedByAnotherIdentity_keepsTheMasterFromStarting() throws Exception {
    CuratorFramework attacker = outsider("attacker:pw");
    attacker.create().withACL(ZooDefs.Ids.CREATOR_ALL_ACL).forPath(PATHS.root());

    IllegalStateException e = assertThrows(IllegalStateException.class, () -> open.add(ScacheMaster.start(conf())));
    assertTrue(e.getMessage().contains(PATHS.root()) && e.getMessage().contains("super user"), e.getMessage());
  }

  @Test
  void zooKeepersOwnRoot_isNotAClustersRoot() throws Exception {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> open.add(ScacheMaster.start(conf().with(ScacheOptions.MASTER_ZOOKEEPER_ROOT, "/"))));
    assertTrue(e.getMessage().contains(ScacheOptions.MASTER_ZOOKEEPER_ROOT.key()), e.getMessage());
    assertEquals(new HashSet<>(ZooDefs.Ids.OPEN_ACL_UNSAFE), new HashSet<>(outsider(null).getACL().forPath("/")));
  }

  @Test
  void aConfiguredZooKeeperIdentityIsUserColonPassword() {
    ScacheConf bad = conf().with(ScacheOptions.MASTER_ZOOKEEPER_AUTH, "no-password");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ZooKeeperIdentity.of(bad, CLUSTER.getBytes(StandardCharsets.UTF_8)));
    assertTrue(e.getMessage().contains(ScacheOptions.MASTER_ZOOKEEPER_AUTH.key()), e.getMessage());
  }
}
