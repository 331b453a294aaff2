package org.scache.master;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.scache.common.BlockId;
import org.scache.common.ScacheException;
import org.scache.common.WorkerInfo;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import org.scache.common.protocol.BlockLocations;
import org.scache.common.protocol.GetScheduleResult;
import org.scache.common.protocol.ListWorkers;
import org.scache.common.protocol.LocateBlocks;
import org.scache.common.protocol.MapFinished;
import org.scache.common.protocol.Message;
import org.scache.common.protocol.RegisterApplication;
import org.scache.common.protocol.RegisterShuffle;
import org.scache.common.protocol.RegisterWorker;
import org.scache.common.protocol.ReportBlocks;
import org.scache.common.protocol.ScheduleResult;
import org.scache.common.protocol.Status;
import org.scache.common.shuffle.BlockSize;
import org.scache.common.shuffle.PartitionerKind;
import org.scache.common.shuffle.ShufflePlacement;
import org.scache.common.shuffle.ShuffleSpec;
import org.scache.common.testing.Await;

/**
 * Masters electing a leader through a real ZooKeeper server (Curator's testing server): one leads, the
 * other refuses every request while it lives, and the one elected after it knows the applications,
 * shuffles and placements the first handed out.
 */
@Timeout(120)
class MasterElectionTest {
  private static final WorkerInfo W1 = new WorkerInfo("w1", "127.0.0.1", 1);
  private static final WorkerInfo W2 = new WorkerInfo("w2", "127.0.0.1", 2);
  private static final byte[] SECRET = "app-secret".getBytes(StandardCharsets.UTF_8);

  private TestingServer zooKeeper;
  private final List<ScacheMaster> masters = new ArrayList<>();

  @BeforeEach
  void startZooKeeper() throws Exception {
    zooKeeper = new TestingServer(true);
  }

  @AfterEach
  void stop() throws Exception {
    masters.forEach(ScacheMaster::close);
    zooKeeper.close();
  }

  private ScacheMaster master(String name) throws InterruptedException {
    ScacheMaster m = ScacheMaster.start(ScacheConf.empty()
        .with(ScacheOptions.SECURITY_CLUSTER_SECRET, "cluster")
        .with(ScacheOptions.MASTER_BIND_HOST, "127.0.0.1").with(ScacheOptions.MASTER_PORT, 0)
        .with(ScacheOptions.MASTER_HTTP_PORT, -1)
        .with(ScacheOptions.MASTER_ADVERTISED_HOST, name)
        .with(ScacheOptions.MASTER_ZOOKEEPER_QUORUM, zooKeeper.getConnectString())
        .with(ScacheOptions.MASTER_ZOOKEEPER_SESSION_TIMEOUT.key(), "4s"));
    masters.add(m);
    return m;
  }

  private static ScacheMaster awaitLeader(ScacheMaster... candidates) {
    Await.until(() -> List.of(candidates).stream().anyMatch(ScacheMaster::isLeader), Duration.ofSeconds(30),
        () -> "no master took the lead");
    return List.of(candidates).stream().filter(ScacheMaster::isLeader).findFirst().orElseThrow();
  }

  @Test
  void oneOfTwoMastersLeads_andTheStandbyRefusesEveryRequestWithNotLeader() throws Exception {
    ScacheMaster a = master("a");
    ScacheMaster b = master("b");
    ScacheMaster leader = awaitLeader(a, b);
    ScacheMaster standby = leader == a ? b : a;
    String leaderName = (leader == a ? "a:" : "b:") + leader.port();

    assertEquals("leader", leader.role());
    assertFalse(standby.isLeader());
    Await.until(() -> standby.role().equals("standby (the leader is " + leaderName + ")"), Duration.ofSeconds(10),
        standby::role);
    for (Message m : List.of(new RegisterWorker(W1, 1 << 20, 0), new ListWorkers(),
        new RegisterApplication("app", SECRET))) {
      ScacheException e = assertThrows(ScacheException.class, () -> standby.serveAuthorized(m));
      assertEquals(Status.NOT_LEADER, e.status(), m.type().toString());
    }
    leader.serveAuthorized(new RegisterWorker(W1, 1 << 20, 0));
    assertEquals(List.of(W1), leader.liveWorkers());
    assertEquals(List.of(), standby.liveWorkers(), "the standby keeps no state of its own");
  }

  @Test
  void theMasterElectedAfterTheLeader_keepsItsApplicationsShufflesAndPlacements() throws Exception {
    ScacheMaster a = master("a");
    ScacheMaster b = master("b");
    ScacheMaster first = awaitLeader(a, b);
    ScacheMaster second = first == a ? b : a;
    first.serveAuthorized(new RegisterWorker(W1, 1 << 20, 0));
    first.serveAuthorized(new RegisterWorker(W2, 1 << 20, 0));
    first.serveAuthorized(new RegisterApplication("app", SECRET));
    first.serveAuthorized(new RegisterShuffle(new ShuffleSpec("app", 0, 2, 6, PartitionerKind.HASH, 0)));
    first.serveAuthorized(new RegisterShuffle(new ShuffleSpec("app", 1, 2, 2, PartitionerKind.HASH, 0)));
    runMap(first, 0, W1, 900, 100, 500, 500, 300, 700);
    ShufflePlacement placed = ((ScheduleResult) first.serveAuthorized(new GetScheduleResult("app", 0)))
        .placement();

    first.close();
    awaitLeader(second);

    // the workers come back with their blocks and finished maps
    second.serveAuthorized(new RegisterWorker(W1, 1 << 20, 0));
    second.serveAuthorized(new RegisterWorker(W2, 1 << 20, 0));
    runMap(second, 0, W1, 900, 100, 500, 500, 300, 700);
    assertEquals(new ScheduleResult(placed), second.serveAuthorized(new GetScheduleResult("app", 0)),
        "every reduce stays where the first leader placed it");
    ScacheException notYet = assertThrows(ScacheException.class,
        () -> second.serveAuthorized(new GetScheduleResult("app", 1)));
    assertEquals(Status.NOT_READY, notYet.status(), "shuffle 1 is known, and not placed yet");
    second.serveAuthorized(new RegisterApplication("app", SECRET));
    ScacheException stolen = assertThrows(ScacheException.class,
        () -> second.serveAuthorized(new RegisterApplication("app", "another".getBytes(StandardCharsets.UTF_8))));
    assertEquals(Status.AUTH_FAILED, stolen.status(), "the id stays its owner's after the failover");

    runMap(second, 1, W2, 10, 20, 30, 40, 50, 60);
    BlockLocations all = (BlockLocations) second.serveAuthorized(
        new LocateBlocks("app", 0, 5, -1));
    assertEquals(2, all.finishedMaps(), "the finished map re-sent by its worker and the new one");
  }

  @Test
  void aLeaderWhoseSessionExpires_standsBy_andTheOtherMasterTakesOver() throws Exception {
    ScacheMaster a = master("a");
    ScacheMaster first = awaitLeader(a);
    ScacheMaster second = master("b");
    first.serveAuthorized(new RegisterApplication("app", SECRET));

    zooKeeper.stop();
    Await.until(() -> !first.isLeader(), Duration.ofSeconds(30), () -> "the leader kept leading without ZooKeeper");
    assertThrows(ScacheException.class, () -> first.serveAuthorized(new ListWorkers()));
    zooKeeper.restart();

    ScacheMaster leader = awaitLeader(first, second);
    Await.until(() -> (leader == first ? second : first).role().startsWith("standby"), Duration.ofSeconds(30),
        () -> "the other master does not stand by");
    ScacheException stolen = assertThrows(ScacheException.class,
        () -> leader.serveAuthorized(new RegisterApplication("app", "another".getBytes(StandardCharsets.UTF_8))));
    assertEquals(Status.AUTH_FAILED, stolen.status());
  }

  @Test
  void theMasterElectedAfterTheLeader_placesTheNextShuffleOfAStageOnTheStageSoFar_asALoneMasterWould()
      throws Exception {
    ScacheMaster lone = ScacheMaster.start(ScacheConf.empty()
        .with(ScacheOptions.SECURITY_CLUSTER_SECRET, "cluster")
        .with(ScacheOptions.MASTER_BIND_HOST, "127.0.0.1").with(ScacheOptions.MASTER_PORT, 0)
        .with(ScacheOptions.MASTER_HTTP_PORT, -1));
    masters.add(lone);
    ScacheMaster a = master("a");
    ScacheMaster b = master("b");
    ScacheMaster first = awaitLeader(a, b);
    ScacheMaster second = first == a ? b : a;
    for (ScacheMaster m : List.of(lone, first)) {
      m.serveAuthorized(new RegisterWorker(W1, 1 << 20, 0));
      m.serveAuthorized(new RegisterWorker(W2, 1 << 20, 0));
      m.serveAuthorized(new RegisterApplication("app", SECRET));
      placeStageShuffle(m, 0, W1, 900, 800, 20, 10);
      placeStageShuffle(m, 1, W2, 30, 40, 700, 600);
    }
    first.close();
    awaitLeader(second);
    second.serveAuthorized(new RegisterWorker(W1, 1 << 20, 0));
    second.serveAuthorized(new RegisterWorker(W2, 1 << 20, 0));

    ShufflePlacement expected = placeStageShuffle(lone, 2, W1, 500, 5, 5, 500);
    ShufflePlacement afterFailover = placeStageShuffle(second, 2, W1, 500, 5, 5, 500);
    assertEquals("accumulated", afterFailover.policy(), "the stage's earlier shuffles are remembered");
    assertEquals(expected, afterFailover);
    assertEquals(((ScheduleResult) lone.serveAuthorized(new GetScheduleResult("app", 0))).placement(),
        ((ScheduleResult) second.serveAuthorized(new GetScheduleResult("app", 0))).placement(),
        "the earlier shuffles' reduces moved with the new one's as they would have on one master");
  }

  /** Registers shuffle {@code id} of stage 7 (one map, on {@code holder}) and returns its placement. */
  private static ShufflePlacement placeStageShuffle(ScacheMaster m, int id, WorkerInfo holder, long... sizes) {
    m.serveAuthorized(new RegisterShuffle(new ShuffleSpec("app", id, 1, sizes.length, PartitionerKind.HASH, 0,
        List.of(), 7, java.util.Optional.empty())));
    List<BlockSize> blocks = new ArrayList<>();
    for (int r = 0; r < sizes.length; r++) {
      blocks.add(new BlockSize(new BlockId("app", id, 0, 0, r), sizes[r]));
    }
    m.serveAuthorized(new ReportBlocks(holder.workerId(), blocks));
    m.serveAuthorized(new MapFinished("app", id, 0, 0));
    return ((ScheduleResult) m.serveAuthorized(new GetScheduleResult("app", id))).placement();
  }

  private static void runMap(ScacheMaster m, int map, WorkerInfo holder, long... sizes) {
    List<BlockSize> blocks = new ArrayList<>();
    for (int r = 0; r < sizes.length; r++) {
      blocks.add(new BlockSize(new BlockId("app", 0, map, 0, r), sizes[r]));
    }
    m.serveAuthorized(new ReportBlocks(holder.workerId(), blocks));
    m.serveAuthorized(new MapFinished("app", 0, map, 0));
  }
}
