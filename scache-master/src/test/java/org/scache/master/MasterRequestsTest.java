package org.scache.master;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.scache.common.BlockId;
import org.scache.common.ScacheException;
import org.scache.common.WorkerInfo;
import org.scache.common.protocol.Ack;
import org.scache.common.protocol.AskBlockRoom;
import org.scache.common.protocol.BlockRoom;
import org.scache.common.protocol.GetBlock;
import org.scache.common.protocol.GetScheduleResult;
import org.scache.common.protocol.Heartbeat;
import org.scache.common.protocol.HeartbeatAck;
import org.scache.common.protocol.HoldCopies;
import org.scache.common.protocol.ListWorkers;
import org.scache.common.protocol.LocateBlocks;
import org.scache.common.protocol.MapFinished;
import org.scache.common.protocol.MapOutputReady;
import org.scache.common.protocol.Message;
import org.scache.common.protocol.ReadInPlace;
import org.scache.common.protocol.RegisterApplication;
import org.scache.common.protocol.RegisterShuffle;
import org.scache.common.protocol.RegisterWorker;
import org.scache.common.protocol.RemoveApplication;
import org.scache.common.protocol.ReportBlockRoom;
import org.scache.common.protocol.ReportBlocks;
import org.scache.common.protocol.ReportRounds;
import org.scache.common.protocol.RoundsIncomplete;
import org.scache.common.protocol.ScheduleResult;
import org.scache.common.protocol.ShuffleScheduled;
import org.scache.common.protocol.Status;
import org.scache.common.protocol.UnregisterShuffle;
import org.scache.common.protocol.WorkerRegistered;
import org.scache.common.protocol.Workers;
import org.scache.common.shuffle.BlockSize;
import org.scache.common.shuffle.PartitionerKind;
import org.scache.common.shuffle.RoundState;
import org.scache.common.shuffle.ShufflePlacement;
import org.scache.common.shuffle.ShuffleSpec;
import org.scache.common.testing.ManualClock;

/** The master's requests, served on real state without sockets: what each changes, answers and tells workers. */
class MasterRequestsTest {
  private static final WorkerInfo W1 = new WorkerInfo("w1", "host-1", 17020);
  private static final WorkerInfo W2 = new WorkerInfo("w2", "host-2", 17020);
  private static final Duration EXPIRY = Duration.ofSeconds(30);

  /** What the master told which worker. */
  private record Told(WorkerInfo to, Message message) {}

  private final ManualClock clock = new ManualClock();
  private final List<Told> told = new ArrayList<>();
  /** What each worker's answer to the master's messages is, until a test holds it back. */
  private CompletableFuture<Void> workersAnswer = CompletableFuture.completedFuture(null);
  private final MasterRequests master = new MasterRequests(new WorkerRegistry(clock, EXPIRY),
      new ApplicationRegistry(clock, Duration.ofMinutes(5)), new ShuffleRegistry(), new CoScheduler(0.5, 1, clock),
      new IncompleteRounds(), new WorkerNotifier() {
        @Override
        public CompletableFuture<Void> tell(WorkerInfo w, Message m) {
          told.add(new Told(w, m));
          return workersAnswer;
        }

        @Override
        public void close() {}
      }, 1000);

  private void twoWorkersAndAnApplication() {
    assertEquals(new WorkerRegistered(1000), master.serve(new RegisterWorker(W1, 1 << 30, 0)));
    master.serve(new RegisterWorker(W2, 1 << 30, 0));
    master.serve(new RegisterApplication("app", "s".getBytes(StandardCharsets.UTF_8)));
  }

  /** Map {@code map} of shuffle 0, put on {@code holder}, with {@code sizes[r]} bytes for reduce r. */
  private void runMap(int map, WorkerInfo holder, long... sizes) {
    List<BlockSize> blocks = new ArrayList<>();
    for (int r = 0; r < sizes.length; r++) {
      blocks.add(new BlockSize(new BlockId("app", 0, map, 0, r), sizes[r]));
    }
    master.serve(new ReportBlocks(holder.workerId(), blocks));
    master.serve(new MapFinished("app", 0, map, 0));
  }

  private <T extends Message> List<Told> toldOf(Class<T> type) {
    return told.stream().filter(t -> type.isInstance(t.message())).toList();
  }

  @Test
  void listWorkers_answersTheRegisteredWorkers() {
    twoWorkersAndAnApplication();
    assertEquals(new Workers(List.of(W1, W2)), master.serve(new ListWorkers()));
  }

  @Test
  void blockRoom_booksTheBlocksARegisteredShuffleHasStillToPut_andFreesEachMapsAsItFinishes() {
    twoWorkersAndAnApplication();
    master.serve(new ReportBlockRoom("w1", 100, 50));
    master.serve(new ReportBlockRoom("w2", 100, 50));
    assertEquals(new BlockRoom(100, 200, 2, 0, 0), master.serve(new AskBlockRoom()));

    master.serve(new RegisterShuffle(new ShuffleSpec("app", 0, 4, 30, PartitionerKind.HASH, 0)));
    assertEquals(new BlockRoom(80, 80, 2, 0, 120), master.serve(new AskBlockRoom()),
        "4 maps × 30 reduces to come: another job sees 80 blocks left in all");

    runMap(0, W1, new long[30]);
    master.serve(new Heartbeat("w1", 1 << 30, 0, 30, List.of("app")));
    assertEquals(new BlockRoom(80, 80, 2, 0, 90), master.serve(new AskBlockRoom()),
        "the finished map's 30 blocks are counted by their worker now, not booked");

    master.serve(new UnregisterShuffle("app", 0));
    master.serve(new Heartbeat("w1", 1 << 30, 0, 0, List.of()));
    assertEquals(new BlockRoom(100, 200, 2, 0, 0), master.serve(new AskBlockRoom()), "the shuffle's room is free");
  }

  @Test
  void registerShuffle_ofAnUnknownApplication_isRefused() {
    ScacheException e = assertThrows(ScacheException.class,
        () -> master.serve(new RegisterShuffle(new ShuffleSpec("nobody", 0, 2, 2, PartitionerKind.HASH, 0))));
    assertEquals(Status.UNKNOWN_APPLICATION, e.status());
  }

  @Test
  void scheduleResult_beforeTheThreshold_isNotReady_thenThePlacementIsBroadcastAndAnswered() {
    twoWorkersAndAnApplication();
    master.serve(new RegisterShuffle(new ShuffleSpec("app", 0, 4, 2, PartitionerKind.HASH, 0)));
    runMap(0, W1, 100, 10);
    ScacheException notYet = assertThrows(ScacheException.class,
        () -> master.serve(new GetScheduleResult("app", 0)));
    assertEquals(Status.NOT_READY, notYet.status());
    assertTrue(notYet.getMessage().contains("1 of 4 maps finished, 2 needed"), notYet.getMessage());
    assertTrue(toldOf(ShuffleScheduled.class).isEmpty());

    runMap(1, W2, 100, 10);
    List<Told> scheduled = toldOf(ShuffleScheduled.class);
    assertEquals(List.of(W1, W2), scheduled.stream().map(Told::to).toList(), "every live worker is told");
    ShufflePlacement placed = ((ScheduleResult) master.serve(new GetScheduleResult("app", 0)))
        .placement();
    assertEquals(((ShuffleScheduled) scheduled.get(0).message()).placement(), placed);
    assertEquals(2, placed.assignments().size());
    assertTrue(placed.workerOf(0).isPresent() && placed.workerOf(1).isPresent());
  }

  @Test
  void scheduleResultAskedWithAWait_isAnsweredOnceTheLastMapEnds_notWhenTheShuffleIsFirstPlaced() {
    twoWorkersAndAnApplication();
    master.serve(new RegisterShuffle(new ShuffleSpec("app", 0, 3, 2, PartitionerKind.HASH, 0)));
    CompletableFuture<Message> waiting = master.answer(new GetScheduleResult("app", 0, 10_000));
    runMap(0, W1, 100, 10);
    runMap(1, W2, 100, 10);
    assertFalse(toldOf(ShuffleScheduled.class).isEmpty(), "placed after two maps of three");
    assertFalse(waiting.isDone(), "the placement may still move until the last map ends");

    runMap(2, W2, 100, 10);

    ShufflePlacement placed = ((ScheduleResult) waiting.join()).placement();
    assertEquals(((ScheduleResult) master.serve(new GetScheduleResult("app", 0))).placement(), placed);
    ScheduleResult again = (ScheduleResult) master.answer(new GetScheduleResult("app", 0, 10_000)).join();
    assertEquals(placed, again.placement(), "a final placement is answered at once");
  }

  @Test
  void scheduleResultAskedWithAWait_ofAShuffleUnregisteredMeanwhile_failsUnknown_andOneNeverPlaced_isNotReady() {
    twoWorkersAndAnApplication();
    master.serve(new RegisterShuffle(new ShuffleSpec("app", 0, 3, 2, PartitionerKind.HASH, 0)));
    CompletableFuture<Message> gone = master.answer(new GetScheduleResult("app", 0, 10_000));
    master.serve(new UnregisterShuffle("app", 0));
    assertEquals(Status.UNKNOWN_SHUFFLE, ScacheException.from(assertThrows(Exception.class, gone::join)).status());

    master.serve(new RegisterShuffle(new ShuffleSpec("app", 1, 3, 2, PartitionerKind.HASH, 0)));
    CompletableFuture<Message> never = master.answer(new GetScheduleResult("app", 1, 20));
    assertEquals(Status.NOT_READY, ScacheException.from(assertThrows(Exception.class, never::join)).status());
  }

  @Test
  void readInPlace_ofAShuffleNeverRegistered_isUnknown_andOfARegisteredOne_isToldToEveryWorker() {
    twoWorkersAndAnApplication();
    ScacheException unknown = assertThrows(ScacheException.class, () -> master.serve(new ReadInPlace("app", 7)));
    assertEquals(Status.UNKNOWN_SHUFFLE, unknown.status());
    assertTrue(toldOf(ReadInPlace.class).isEmpty(), "no worker is told of an unknown shuffle");

    master.serve(new RegisterShuffle(new ShuffleSpec("app", 0, 2, 2, PartitionerKind.HASH, 0)));
    assertEquals(new Ack(), master.serve(new ReadInPlace("app", 0)));
    assertEquals(List.of(W1, W2), toldOf(ReadInPlace.class).stream().map(Told::to).toList());
  }

  @Test
  void holdCopies_ofAShuffleNeverRegistered_isUnknown_andOfARegisteredOne_isToldToEveryWorkerAsSent() {
    twoWorkersAndAnApplication();
    ScacheException unknown = assertThrows(ScacheException.class,
        () -> master.serve(new HoldCopies("app", 7, true)));
    assertEquals(Status.UNKNOWN_SHUFFLE, unknown.status());
    assertTrue(toldOf(HoldCopies.class).isEmpty(), "no worker is told of an unknown shuffle");

    master.serve(new RegisterShuffle(new ShuffleSpec("app", 0, 2, 2, PartitionerKind.HASH, 0)));
    assertEquals(new Ack(), master.serve(new HoldCopies("app", 0, true)));
    assertEquals(new Ack(), master.serve(new HoldCopies("app", 0, false)));
    assertEquals(List.of(W1, W2, W1, W2), toldOf(HoldCopies.class).stream().map(Told::to).toList());
    assertEquals(List.of(true, true, false, false), toldOf(HoldCopies.class).stream()
        .map(t -> ((HoldCopies) t.message()).held()).toList());
  }

  @Test
  void mapFinishedAfterThePlacement_tellsTheReducesWorkersWhereItsBlocksAre() {
    twoWorkersAndAnApplication();
    master.serve(new RegisterShuffle(new ShuffleSpec("app", 0, 2, 2, PartitionerKind.HASH, 0)));
    runMap(0, W1, 100, 100);
    ShufflePlacement placed = ((ScheduleResult) master.serve(new GetScheduleResult("app", 0)))
        .placement();
    runMap(1, W1, 5, 5);
    for (Told t : toldOf(MapOutputReady.class)) {
      MapOutputReady ready = (MapOutputReady) t.message();
      assertEquals(W1, ready.holder());
      for (BlockSize b : ready.blocks()) {
        assertEquals(Optional.of(t.to()), placed.workerOf(b.blockId().reduceId()), "only to the reduce's worker");
      }
    }
    long elsewhere = placed.assignments().stream().filter(a -> !a.worker().equals(W1)).count();
    assertEquals(elsewhere, toldOf(MapOutputReady.class).stream()
        .mapToInt(t -> ((MapOutputReady) t.message()).blocks().size()).sum(),
        "one notice per block of a reduce placed away from its holder");
  }

  @Test
  void mapFinished_ofAShuffleWhoseRegistrationWasRefused_isAnsweredUnknownShuffle() {
    twoWorkersAndAnApplication();
    ScacheException refused = assertThrows(ScacheException.class,
        () -> master.serve(new RegisterShuffle(new ShuffleSpec("app", 0, 2, 900_000, PartitionerKind.HASH, 0))));
    assertEquals(Status.LIMIT_EXCEEDED, refused.status(), refused.getMessage());
    // a map that ran anyway put a block before it finished
    master.serve(new ReportBlocks("w1", List.of(new BlockSize(new BlockId("app", 0, 0, 0, 0), 10))));
    ScacheException e = assertThrows(ScacheException.class, () -> master.serve(new MapFinished("app", 0, 0, 0)));
    assertEquals(Status.UNKNOWN_SHUFFLE, e.status(), e.getMessage());
    assertTrue(toldOf(MapOutputReady.class).isEmpty() && toldOf(ShuffleScheduled.class).isEmpty());
    // registered again within the limits, its maps are taken
    master.serve(new RegisterShuffle(new ShuffleSpec("app", 0, 2, 2, PartitionerKind.HASH, 0)));
    assertEquals(new Ack(), master.serve(new MapFinished("app", 0, 0, 0)));
  }

  @Test
  void locate_afterTheHoldersHeartbeatsStop_namesTheMapToRunAgain() {
    twoWorkersAndAnApplication();
    master.serve(new RegisterShuffle(new ShuffleSpec("app", 0, 2, 1, PartitionerKind.HASH, 0)));
    runMap(0, W1, 10);
    runMap(1, W2, 10);
    clock.advance(EXPIRY.plusSeconds(1));
    master.serve(new Heartbeat("w2", 1 << 30, 0, 1, List.of("app")));
    master.expireWorkers();
    ScacheException e = assertThrows(ScacheException.class,
        () -> master.serve(new LocateBlocks("app", 0, 0, -1)));
    assertEquals(Status.BLOCK_NOT_FOUND, e.status());
    assertTrue(e.getMessage().contains("map 0"), e.getMessage());
    assertEquals(new Workers(List.of(W2)), master.serve(new ListWorkers()));
  }

  @Test
  void reportRounds_tellsEveryWorkerWhenARoundBecomesIncomplete() {
    twoWorkersAndAnApplication();
    master.serve(new ReportRounds("w1", List.of(new RoundState("app", 0, 1, true))));
    List<Told> rounds = toldOf(RoundsIncomplete.class);
    assertEquals(List.of(W1, W2), rounds.stream().map(Told::to).toList());
    assertEquals(new RoundsIncomplete("app", 0, List.of(1)), rounds.get(0).message());
  }

  @Test
  void reportFromAnUnregisteredWorker_isRefused() {
    ScacheException e = assertThrows(ScacheException.class,
        () -> master.serve(new ReportBlocks("ghost", List.of())));
    assertEquals(Status.UNKNOWN_WORKER, e.status());
  }

  @Test
  void removeApplication_forgetsItsShuffles_andTellsEveryWorker() {
    twoWorkersAndAnApplication();
    master.serve(new RegisterShuffle(new ShuffleSpec("app", 0, 2, 2, PartitionerKind.HASH, 0)));
    master.serve(new RemoveApplication("app"));
    assertEquals(List.of(W1, W2), toldOf(RemoveApplication.class).stream().map(Told::to).toList());
    ScacheException e = assertThrows(ScacheException.class,
        () -> master.serve(new GetScheduleResult("app", 0)));
    assertEquals(Status.UNKNOWN_SHUFFLE, e.status());
    assertEquals(new HeartbeatAck(List.of("app")),
        master.serve(new Heartbeat("w1", 1 << 30, 0, 0, List.of("app"))), "the heartbeat says it is gone");
  }

  @Test
  void unregisterShuffle_isAnsweredOnlyOnceTheWorkersDroppedIt() {
    twoWorkersAndAnApplication();
    master.serve(new RegisterShuffle(new ShuffleSpec("app", 0, 2, 2, PartitionerKind.HASH, 0)));
    workersAnswer = new CompletableFuture<>();
    CompletableFuture<Message> answer = master.answer(new UnregisterShuffle("app", 0));
    assertEquals(List.of(W1, W2), toldOf(UnregisterShuffle.class).stream().map(Told::to).toList());
    assertFalse(answer.isDone(), "a shuffle registered again now could lose its blocks to a worker's late removal");
    workersAnswer.complete(null);
    assertEquals(new Ack(), answer.getNow(null));
  }

  @Test
  void aMessageTheMasterDoesNotServe_isUnknownToIt() {
    ScacheException e = assertThrows(ScacheException.class,
        () -> master.serve(new GetBlock(new BlockId("app", 0, 0, 0, 0))));
    assertEquals(Status.UNKNOWN_MESSAGE_TYPE, e.status());
  }
}
