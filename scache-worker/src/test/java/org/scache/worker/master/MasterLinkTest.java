package org.scache.worker.master;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.scache.common.testing.ScriptedConnections.answer;
import static org.scache.common.testing.ScriptedConnections.refuse;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.scache.common.BlockId;
import org.scache.common.Clock;
import org.scache.common.ShuffleKey;
import org.scache.common.WorkerInfo;
import org.scache.common.auth.Credentials;
import org.scache.common.ha.Locator;
import org.scache.common.network.Reply;
import org.scache.common.protocol.Ack;
import org.scache.common.protocol.Heartbeat;
import org.scache.common.protocol.HeartbeatAck;
import org.scache.common.protocol.MapFinished;
import org.scache.common.protocol.Message;
import org.scache.common.protocol.RegisterWorker;
import org.scache.common.protocol.ReportBlocks;
import org.scache.common.protocol.Status;
import org.scache.common.protocol.WorkerRegistered;
import org.scache.common.shuffle.BlockSize;
import org.scache.common.testing.Await;
import org.scache.common.testing.ScriptedConnections;
import org.scache.worker.counters.ShuffleActivityLog;
import org.scache.worker.store.MemoryPool;
import org.scache.worker.store.PendingPut;
import org.scache.worker.store.WorkerStorage;

class MasterLinkTest {
  private static final WorkerInfo SELF = new WorkerInfo("w-self", "self", 1);
  private static final String MASTER = "master:7000";
  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final Duration NEVER = Duration.ofHours(1);

  @TempDir
  Path dir;
  private MemoryPool pool;
  private WorkerStorage storage;
  private MasterCalls calls;
  private MasterLink link;
  private final List<String> removedApps = new CopyOnWriteArrayList<>();
  private final AtomicInteger heartbeatsRefused = new AtomicInteger();
  private final AtomicInteger reportsRefused = new AtomicInteger();
  private final List<Long> roundTrips = new CopyOnWriteArrayList<>();
  /** Advances a millisecond each time it is read. */
  private final AtomicLong ticks = new AtomicLong();
  private long heartbeatMillis = 60_000;
  private List<String> endedApps = List.of();

  @BeforeEach
  void open() throws Exception {
    pool = new MemoryPool(dir, "test", 1 << 20, 512 << 10, false);
    storage = WorkerStorage.inMemory(pool);
  }

  @AfterEach
  void close() {
    if (link != null) {
      link.close();
      calls.close();
    }
    storage.close();
    pool.close();
  }

  /** A master that accepts everything, except what a test asks it to refuse. */
  private Reply master(String peer, Message m) {
    if (m instanceof RegisterWorker) {
      return answer(new WorkerRegistered(heartbeatMillis));
    }
    if (m instanceof Heartbeat) {
      if (heartbeatsRefused.getAndDecrement() > 0) {
        throw refuse(Status.UNKNOWN_WORKER);
      }
      return answer(new HeartbeatAck(endedApps));
    }
    if (m instanceof ReportBlocks && reportsRefused.getAndDecrement() > 0) {
      throw refuse(Status.TIMEOUT);
    }
    return answer(new Ack());
  }

  private ScriptedConnections start(int batchSize, Duration flushInterval) {
    ScriptedConnections connections = new ScriptedConnections(this::master);
    calls = new MasterCalls(Locator.fixed(MASTER), connections,
        Credentials.cluster("c".getBytes(StandardCharsets.UTF_8)), Duration.ofSeconds(5));
    link = new MasterLink(calls, SELF, storage, batchSize, flushInterval, removedApps::add, new ShuffleActivityLog());
    link.timeRoundTrips(new Clock() {
      @Override
      public long millis() {
        return ticks.incrementAndGet();
      }

      @Override
      public long nanos() {
        return ticks.incrementAndGet() * 1_000_000L;
      }
    }, roundTrips::add);
    link.start();
    Await.until(link::isRegistered, WAIT, "the link registers");
    return connections;
  }

  private void putHere(BlockId id, int size) {
    PendingPut p = storage.puts().begin(id, size);
    ByteBuf data = Unpooled.buffer(size).writeZero(size);
    p.write(data);
    data.release();
    storage.puts().commit(p);
  }

  private static BlockId block(int map, int reduce) {
    return new BlockId("app", 0, map, 0, reduce);
  }

  private static List<BlockSize> reported(ScriptedConnections c) {
    return c.sentOfType(ReportBlocks.class).stream()
        .flatMap(m -> ((ReportBlocks) m).blocks().stream()).toList();
  }

  @Test
  void registration_isFollowedByTheWholeInventory_signedAsTheCluster() {
    putHere(block(0, 0), 10);
    putHere(block(0, 1), 20);

    ScriptedConnections c = start(100, NEVER);

    Await.until(() -> reported(c).size() == 2, WAIT, "the inventory is reported");
    assertInstanceOf(RegisterWorker.class, c.sent().get(0).message());
    assertEquals(Set.of(new BlockSize(block(0, 0), 10), new BlockSize(block(0, 1), 20)), Set.copyOf(reported(c)));
    assertTrue(c.sent().stream().allMatch(s -> s.peer().equals(MASTER)
        && s.credentials().map(Credentials::isCluster).orElse(false)), () -> "sent: " + c.sent());
  }

  @Test
  void aMapsBlockReports_reachTheMasterBeforeItsMapFinished() {
    ScriptedConnections c = start(100, NEVER);

    link.blockStored(new BlockSize(block(3, 0), 10));
    link.blockStored(new BlockSize(block(3, 1), 20));
    link.mapFinished(new ShuffleKey("app", 0), 3, 0).join();

    List<Message> order = c.sent().stream().map(ScriptedConnections.Sent::message)
        .filter(m -> m instanceof ReportBlocks || m instanceof MapFinished).toList();
    assertEquals(List.of(new ReportBlocks(SELF.workerId(), List.of(new BlockSize(block(3, 0), 10),
        new BlockSize(block(3, 1), 20))), new MapFinished("app", 0, 3, 0)), order);
  }

  @Test
  void reports_goInBatchesOfTheBatchSize() {
    ScriptedConnections c = start(2, NEVER);

    for (int map = 0; map < 5; map++) {
      link.blockStored(new BlockSize(block(map, 0), 10));
    }
    link.mapFinished(new ShuffleKey("app", 0), 4, 0).join();

    assertEquals(List.of(2, 2, 1), c.sentOfType(ReportBlocks.class).stream()
        .map(m -> ((ReportBlocks) m).blocks().size()).toList());
  }

  @Test
  void waitingReports_areSentInOneBatch_whenTheFlushIntervalEnds_withNoMapFinishedToPushThem() {
    ScriptedConnections c = start(100, Duration.ofMillis(200));

    link.blockStored(new BlockSize(block(5, 0), 10));
    link.blockStored(new BlockSize(block(5, 1), 20));

    Await.until(() -> reported(c).size() == 2, WAIT, () -> "the reports are flushed; sent: " + c.sent());
    assertEquals(1, c.sentOfType(ReportBlocks.class).size(), "both reports in one batch");
  }

  @Test
  void aLostReport_makesTheNextReportTheWholeInventory() {
    ScriptedConnections c = start(100, Duration.ofMillis(20));
    putHere(block(0, 0), 10);
    reportsRefused.set(1);

    link.blockStored(new BlockSize(block(7, 0), 10)); // refused: the next report resends everything held
    Await.until(() -> reported(c).contains(new BlockSize(block(0, 0), 10)), WAIT,
        () -> "the inventory is resent; sent: " + c.sent());
  }

  @Test
  void aMasterThatNoLongerKnowsTheWorker_hasItRegisterAgain_withItsInventory() {
    heartbeatMillis = 20;
    putHere(block(0, 0), 10);
    ScriptedConnections c = start(100, NEVER);
    Await.until(() -> reported(c).size() == 1, WAIT, "the first inventory");
    heartbeatsRefused.set(1);

    Await.until(() -> c.sentOfType(RegisterWorker.class).size() == 2, WAIT, "a second registration");
    Await.until(() -> reported(c).size() == 2, WAIT, "the inventory again");
    assertTrue(link.isRegistered());
  }

  @Test
  void theBlockRoomReportAndEachHeartbeat_areTimedAsRoundTrips_againAfterRegisteringAgain() {
    heartbeatMillis = 20;
    ScriptedConnections c = start(100, NEVER);
    Await.until(() -> roundTrips.size() >= 3, WAIT, "the block room report and two heartbeats are timed");
    // each read of the clock is a millisecond later: a call and its answer are at least two reads apart
    assertTrue(roundTrips.stream().allMatch(n -> n >= 1_000_000L), roundTrips.toString());
    int before = roundTrips.size();
    heartbeatsRefused.set(1);
    Await.until(() -> c.sentOfType(RegisterWorker.class).size() == 2, WAIT, "the refused heartbeat's re-registration");
    Await.until(() -> roundTrips.size() >= before + 2, WAIT, "the next block room report and heartbeat are timed");
  }

  @Test
  void applicationsTheMasterEnded_areRemovedHere() {
    heartbeatMillis = 20;
    endedApps = List.of("app-1", "app-2");

    start(100, NEVER);

    Await.until(() -> removedApps.containsAll(List.of("app-1", "app-2")), WAIT, "the ended applications are removed");
  }
}
