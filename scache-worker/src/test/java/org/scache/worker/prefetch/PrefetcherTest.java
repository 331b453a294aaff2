package org.scache.worker.prefetch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.scache.common.BlockId;
import org.scache.common.ShuffleKey;
import org.scache.common.WorkerInfo;
import org.scache.common.shuffle.BlockSize;
import org.scache.common.shuffle.ReduceAssignment;
import org.scache.common.shuffle.ReduceMove;
import org.scache.common.shuffle.ShufflePlacement;
import org.scache.common.testing.ManualClock;
import org.scache.worker.cluster.ScriptedCluster;
import org.scache.worker.counters.WorkerCounters;
import org.scache.worker.store.MemoryPool;
import org.scache.worker.store.WorkerStorage;

class PrefetcherTest {
  private static final WorkerInfo SELF = new WorkerInfo("w-self", "self", 1);
  private static final WorkerInfo A = new WorkerInfo("w-a", "a", 2);
  private static final WorkerInfo B = new WorkerInfo("w-b", "b", 3);
  private static final ShuffleKey SHUFFLE = new ShuffleKey("app", 0);

  @TempDir
  Path dir;
  private MemoryPool pool;
  private WorkerStorage storage;
  private final ScriptedCluster cluster = new ScriptedCluster();
  private final WorkerCounters counters = new WorkerCounters();
  private final ManualClock clock = new ManualClock();
  private final RecordingTimer timer = new RecordingTimer();

  /** A timer that runs what it is given at once and remembers each delay asked for. */
  static final class RecordingTimer extends ScheduledThreadPoolExecutor {
    final List<Long> delaysNanos = new ArrayList<>();

    RecordingTimer() {
      super(1);
    }

    @Override
    public synchronized ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
      delaysNanos.add(unit.toNanos(delay));
      command.run();
      return super.schedule(() -> { }, 0, TimeUnit.NANOSECONDS);
    }
  }

  @BeforeEach
  void open() throws Exception {
    pool = new MemoryPool(dir, "test", 4 << 20, 1 << 20, false);
    storage = WorkerStorage.inMemory(pool);
  }

  @AfterEach
  void close() {
    timer.shutdownNow();
    storage.close();
    pool.close();
  }

  private Prefetcher prefetcher(int maxInflight, long batchBytes, long bytesPerSecond) {
    return prefetcher(maxInflight, maxInflight, batchBytes, bytesPerSecond);
  }

  private Prefetcher prefetcher(int maxInflight, int perHolder, long batchBytes, long bytesPerSecond) {
    return new Prefetcher(storage.store(), storage.copies(), cluster, cluster, storage.placements(), SELF, counters,
        timer, new Prefetcher.Limits(true, maxInflight, perHolder, batchBytes, bytesPerSecond), clock);
  }

  private long fetchesFrom(WorkerInfo holder) {
    return cluster.fetches().stream().filter(f -> f.holder().equals(holder)).count();
  }

  /** The master's placement arrives: the store's placement book learns it, then the prefetcher acts on it. */
  private void schedule(Prefetcher p, ShufflePlacement placement) {
    storage.store().scheduled(placement, 0, List.of());
    p.onScheduled(placement, List.of());
  }

  private static BlockId block(int map, int reduce) {
    return new BlockId(SHUFFLE.appId(), SHUFFLE.shuffleId(), map, 0, reduce);
  }

  private static ShufflePlacement placement(ReduceAssignment... assignments) {
    return new ShufflePlacement(SHUFFLE.appId(), SHUFFLE.shuffleId(), "test", List.of(assignments));
  }

  private byte[] stored(BlockId id) {
    ByteBuf b = storage.reads().read(id).join().orElseThrow();
    try {
      return ByteBufUtil.getBytes(b);
    } finally {
      b.release();
    }
  }

  @Test
  void schedule_copiesTheBlocksOfReducesPlacedHere_andNoOthers() {
    cluster.hold(A, block(0, 0), 100).hold(B, block(1, 0), 200).hold(A, block(0, 1), 300);
    Prefetcher p = prefetcher(4, 1 << 20, 0);

    schedule(p, placement(new ReduceAssignment(0, SELF, 0, 300), new ReduceAssignment(1, A, 0, 300)));

    assertEquals(List.of(block(0, 0), block(1, 0)), cluster.fetchedIds().stream().sorted(
        java.util.Comparator.comparingInt(BlockId::mapId)).toList());
    assertArrayEquals(cluster.bytesOf(block(0, 0)), stored(block(0, 0)));
    assertArrayEquals(cluster.bytesOf(block(1, 0)), stored(block(1, 0)));
    assertTrue(storage.store().isCopy(block(0, 0)));
    assertFalse(storage.store().contains(block(0, 1)), "reduce 1 is placed on A");
    assertEquals(2, counters.prefetchedBlocks.sum());
    assertEquals(300, counters.prefetchedBytes.sum());
  }

  @Test
  void blocksOfOneHolder_areFetchedInBatchesUpToTheBatchSize_eachLandingAsTheirReducesRegion() {
    for (int map = 0; map < 5; map++) {
      cluster.hold(A, block(map, 0), 100);
    }
    Prefetcher p = prefetcher(1, 250, 0);

    schedule(p, placement(new ReduceAssignment(0, SELF, 0, 500)));

    assertEquals(List.of(2, 2, 1), cluster.fetches().stream().map(f -> f.ids().size()).toList());
    for (int map = 0; map < 5; map++) {
      assertArrayEquals(cluster.bytesOf(block(map, 0)), stored(block(map, 0)));
    }
    assertEquals(3, counters.prefetchFetches.sum());
  }

  @Test
  void aSlowHolder_keepsAtMostItsShareOfTheFetches_whileAFastHolderIsAskedAgainAsEachAnswerLands() {
    for (int map = 0; map < 6; map++) {
      cluster.hold(A, block(map, 0), 10).hold(B, block(map + 6, 0), 10);
    }
    cluster.holdFetches();
    Prefetcher p = prefetcher(4, 2, 10, 0);

    schedule(p, placement(new ReduceAssignment(0, SELF, 0, 120)));
    assertEquals(2, fetchesFrom(A));
    assertEquals(2, fetchesFrom(B));

    // A answers nothing; each of B's answers frees a fetch, and it goes to B again, not to A
    for (int i = 0; i < 3; i++) {
      assertTrue(cluster.releaseOneFrom(B));
    }
    assertEquals(2, fetchesFrom(A), "A already has its two fetches in flight");
    assertEquals(5, fetchesFrom(B));
    assertEquals(4, p.inflight());

    cluster.releaseAll();
    assertEquals(0, p.backlog()[0]);
    for (int map = 0; map < 12; map++) {
      assertTrue(storage.store().contains(block(map, 0)), "map " + map + " landed");
    }
  }

  @Test
  void theNextFetch_goesToTheHolderWithTheFewestInFlight_notToTheNextInTurn() {
    WorkerInfo c = new WorkerInfo("w-c", "c", 4);
    for (int map = 0; map < 3; map++) {
      cluster.hold(A, block(map, 0), 10).hold(B, block(map + 3, 0), 10).hold(c, block(map + 6, 0), 10);
    }
    cluster.holdFetches();
    Prefetcher p = prefetcher(3, 3, 10, 0);

    schedule(p, placement(new ReduceAssignment(0, SELF, 0, 90)));
    assertEquals(List.of(1L, 1L, 1L), List.of(fetchesFrom(A), fetchesFrom(B), fetchesFrom(c)));

    // B answers first: A is next in turn, but has a fetch in flight and B has none
    assertTrue(cluster.releaseOneFrom(B));
    assertEquals(List.of(1L, 2L, 1L), List.of(fetchesFrom(A), fetchesFrom(B), fetchesFrom(c)));

    cluster.releaseAll();
    assertEquals(0, p.backlog()[0]);
    assertEquals(0, p.inflight());
  }

  @Test
  void queuedBlocks_goByTheirReducesRoundInThePlacement_firstRoundFirst() {
    cluster.hold(A, block(0, 0), 10).hold(A, block(1, 0), 10).hold(A, block(0, 1), 10).hold(A, block(1, 1), 10);
    cluster.holdFetches();
    Prefetcher p = prefetcher(1, 10, 0);

    // reduce 0 runs in the second round, reduce 1 in the first
    schedule(p, placement(new ReduceAssignment(0, SELF, 1, 20), new ReduceAssignment(1, SELF, 0, 20)));
    cluster.releaseAll();

    // the first fetch started before reduce 1 was queued; after it, the first round goes first
    assertEquals(List.of(block(0, 0), block(0, 1), block(1, 1), block(1, 0)), cluster.fetchedIds());
  }

  @Test
  void aReadOfBlocksOnTheirWay_waitsForThem_andTheyJumpTheQueue() {
    for (int map = 0; map < 3; map++) {
      cluster.hold(A, block(map, 0), 10).hold(A, block(map, 1), 10);
    }
    cluster.holdFetches();
    Prefetcher p = prefetcher(1, 10, 0);
    schedule(p, placement(new ReduceAssignment(0, SELF, 0, 30), new ReduceAssignment(1, SELF, 1, 30)));

    List<BlockId> reduce1 = List.of(block(0, 1), block(1, 1), block(2, 1));
    CompletableFuture<Void> settled = p.whenSettled(reduce1);
    assertFalse(settled.isDone());

    cluster.releaseAll();

    assertTrue(settled.isDone());
    reduce1.forEach(id -> assertTrue(storage.store().contains(id), id + " landed"));
    // the one fetch under way when the read came, then the read's blocks, then the rest
    assertEquals(List.of(block(0, 0), block(0, 1), block(1, 1), block(2, 1), block(1, 0), block(2, 0)),
        cluster.fetchedIds());
  }

  @Test
  void aFailedFetch_settlesTheReadsWaitingForItsBlocks_soTheyAreReadFromTheirHolder() {
    cluster.hold(A, block(0, 0), 10).hold(B, block(1, 0), 10);
    cluster.unreachable(A);
    cluster.holdFetches();
    Prefetcher p = prefetcher(4, 1 << 20, 0);
    schedule(p, placement(new ReduceAssignment(0, SELF, 0, 20)));
    CompletableFuture<Void> settled = p.whenSettled(List.of(block(0, 0), block(1, 0)));

    cluster.releaseAll();

    assertTrue(settled.isDone());
    assertFalse(storage.store().contains(block(0, 0)));
    assertTrue(storage.store().contains(block(1, 0)));
    assertEquals(1, counters.prefetchFailures.sum());
    assertEquals(0, p.inflight());
    assertEquals(0, p.backlog()[0]);
  }

  @Test
  void aMapFinishedAfterTheSchedule_hasItsBlocksCopied_butNotThoseHeldHereAlready() {
    Prefetcher p = prefetcher(4, 1 << 20, 0);
    schedule(p, placement(new ReduceAssignment(0, SELF, 0, 20)));
    assertEquals(List.of(), cluster.fetches());
    cluster.hold(B, block(3, 0), 40);

    p.onMapOutput(SHUFFLE, B, List.of(new BlockSize(block(3, 0), 40)));
    p.onMapOutput(SHUFFLE, SELF, List.of(new BlockSize(block(4, 0), 40)));

    assertEquals(List.of(new ScriptedCluster.Fetch(B, List.of(block(3, 0)))), cluster.fetches());
    assertArrayEquals(cluster.bytesOf(block(3, 0)), stored(block(3, 0)));
  }

  @Test
  void blocksAReadFetchedFromTheirHolder_areNotCopied_whenTheirNoticeComesLate_norWhenQueued() {
    cluster.hold(A, block(0, 0), 10).hold(A, block(1, 0), 10);
    cluster.holdFetches();
    Prefetcher p = prefetcher(1, 10, 0);
    schedule(p, placement(new ReduceAssignment(0, SELF, 0, 30)));
    assertEquals(1, p.backlog()[0], "one fetch in flight, one block queued");

    p.readFromHolders(List.of(block(1, 0)));
    p.onMapOutput(SHUFFLE, B, List.of(new BlockSize(block(3, 0), 10)));
    p.readFromHolders(List.of(block(3, 0)));
    p.readFromHolders(List.of(block(4, 0)));
    p.onMapOutput(SHUFFLE, B, List.of(new BlockSize(block(4, 0), 10)));

    assertEquals(0, p.backlog()[0]);
    cluster.releaseAll();
    assertEquals(List.of(new ScriptedCluster.Fetch(A, List.of(block(0, 0)))), cluster.fetches());
  }

  @Test
  void aForgottenShuffle_hasItsQueueDropped_itsWaitsSettled_andLateAnnouncementsIgnored() {
    cluster.hold(A, block(0, 0), 10).hold(A, block(1, 0), 10).hold(A, block(2, 0), 10);
    cluster.holdFetches();
    Prefetcher p = prefetcher(1, 10, 0);
    schedule(p, placement(new ReduceAssignment(0, SELF, 0, 30)));
    CompletableFuture<Void> settled = p.whenSettled(List.of(block(2, 0)));

    p.forgetShuffle(SHUFFLE);

    assertTrue(settled.isDone());
    assertEquals(0, p.backlog()[0]);
    cluster.releaseAll();
    assertFalse(storage.store().contains(block(0, 0)), "a copy of a removed shuffle does not land");
    cluster.hold(B, block(5, 0), 10);
    p.onMapOutput(SHUFFLE, B, List.of(new BlockSize(block(5, 0), 10)));
    assertEquals(1, cluster.fetches().size());
  }

  @Test
  void aShuffleReadWhereItsMapsRan_hasItsQueueDropped_itsWaitsSettled_andLaterMapOutputsIgnored() {
    cluster.hold(A, block(0, 0), 10).hold(A, block(1, 0), 10).hold(A, block(2, 0), 10);
    cluster.holdFetches();
    Prefetcher p = prefetcher(1, 10, 0);
    schedule(p, placement(new ReduceAssignment(0, SELF, 0, 30)));
    CompletableFuture<Void> settled = p.whenSettled(List.of(block(2, 0)));
    assertEquals(2, p.backlog()[0], "one fetch in flight, two blocks queued");

    p.readInPlace(SHUFFLE);

    assertTrue(settled.isDone(), "a read waiting for a dropped block reads it from its holder");
    assertEquals(0, p.backlog()[0]);
    assertEquals(2, counters.prefetchDroppedBlocks.sum());
    cluster.releaseAll();
    assertFalse(storage.store().contains(block(0, 0)), "the copy under way is not kept");
    cluster.hold(B, block(5, 0), 10);
    p.onMapOutput(SHUFFLE, B, List.of(new BlockSize(block(5, 0), 10)));
    assertEquals(1, cluster.fetches().size(), "a map finished later is not copied");
  }

  @Test
  void heldCopies_copyNothingWhileHeld_andLetGo_copyEveryBlockOfTheReducesPlacedHere() {
    cluster.hold(A, block(0, 0), 10).hold(A, block(0, 1), 10).hold(B, block(1, 1), 10);
    Prefetcher p = prefetcher(4, 1 << 20, 0);
    p.holdCopies(SHUFFLE, true);

    schedule(p, placement(new ReduceAssignment(0, SELF, 0, 10), new ReduceAssignment(1, SELF, 0, 20),
        new ReduceAssignment(2, A, 0, 10)));
    cluster.hold(B, block(2, 0), 10);
    p.onMapOutput(SHUFFLE, B, List.of(new BlockSize(block(2, 0), 10)));

    assertEquals(List.of(), cluster.fetches(), "nothing is copied while held");
    assertEquals(0, p.backlog()[0]);
    assertTrue(p.whenSettled(List.of(block(0, 0))).isDone(), "a read meanwhile fetches from the holder");

    p.holdCopies(SHUFFLE, false);

    assertEquals(List.of(block(0, 0), block(0, 1), block(1, 1), block(2, 0)), cluster.fetchedIds().stream()
        .sorted(java.util.Comparator.comparingInt(BlockId::mapId).thenComparingInt(BlockId::reduceId)).toList());
    assertArrayEquals(cluster.bytesOf(block(2, 0)), stored(block(2, 0)));
    p.holdCopies(SHUFFLE, false);
    assertEquals(4, counters.prefetchedBlocks.sum(), "a second release copies nothing again");
  }

  @Test
  void aHoldAfterThePlacement_takesTheQueuedBlocksOut_settlesTheirReads_andTheReleaseQueuesThemAgain() {
    cluster.hold(A, block(0, 0), 10).hold(A, block(1, 0), 10).hold(A, block(2, 0), 10);
    cluster.holdFetches();
    Prefetcher p = prefetcher(1, 10, 0);
    schedule(p, placement(new ReduceAssignment(0, SELF, 0, 30)));
    CompletableFuture<Void> settled = p.whenSettled(List.of(block(2, 0)));
    assertEquals(2, p.backlog()[0], "one fetch in flight, two blocks queued");

    p.holdCopies(SHUFFLE, true);

    assertTrue(settled.isDone(), "a read waiting for a block held back reads it from its holder");
    assertEquals(0, p.backlog()[0]);
    assertEquals(0, counters.prefetchDroppedBlocks.sum(), "held back, not dropped");
    cluster.releaseAll();
    assertTrue(storage.store().contains(block(0, 0)), "the copy under way lands");

    p.holdCopies(SHUFFLE, false);
    cluster.releaseAll();

    assertTrue(storage.store().contains(block(1, 0)) && storage.store().contains(block(2, 0)));
    assertEquals(3, counters.prefetchedBlocks.sum(), "the block already here is not copied again");
  }

  @Test
  void aHeldShuffleReadWhereItsMapsRan_isNeverCopied_evenIfLetGoAfter() {
    cluster.hold(A, block(0, 0), 10);
    Prefetcher p = prefetcher(4, 1 << 20, 0);
    p.holdCopies(SHUFFLE, true);
    schedule(p, placement(new ReduceAssignment(0, SELF, 0, 10)));

    p.readInPlace(SHUFFLE);
    p.holdCopies(SHUFFLE, false);
    p.holdCopies(SHUFFLE, true);
    p.onMapOutput(SHUFFLE, A, List.of(new BlockSize(block(0, 0), 10)));

    assertEquals(List.of(), cluster.fetches());
  }

  @Test
  void aReadWhileItsReduceIsBeingLocated_waitsForTheBlocksToBeQueued_andThenForTheirCopies() {
    cluster.hold(A, block(0, 0), 10);
    cluster.holdLocates();
    Prefetcher p = prefetcher(4, 1 << 20, 0);
    schedule(p, placement(new ReduceAssignment(0, SELF, 0, 10)));

    CompletableFuture<Void> settled = p.whenSettled(List.of(block(0, 0)));
    assertFalse(settled.isDone(), "the reduce was just placed here: its blocks are being located");
    cluster.holdFetches();
    cluster.releaseLocates();
    assertFalse(settled.isDone(), "queued, and on their way");
    cluster.releaseAll();

    assertTrue(settled.isDone());
    assertArrayEquals(cluster.bytesOf(block(0, 0)), stored(block(0, 0)));
  }

  @Test
  void aReduceMovedAway_hasItsQueuedBlocksDropped_andItsWaitsSettled_whileTheReducesStayingHereGoOn() {
    for (int map = 0; map < 3; map++) {
      cluster.hold(A, block(map, 0), 10).hold(A, block(map, 1), 10);
    }
    cluster.holdFetches();
    Prefetcher p = prefetcher(1, 10, 0);
    schedule(p, placement(new ReduceAssignment(0, SELF, 0, 30), new ReduceAssignment(1, SELF, 1, 30)));
    CompletableFuture<Void> settled = p.whenSettled(List.of(block(2, 1)));
    assertFalse(settled.isDone());

    // every map done: the master moves reduce 1 to B
    ShufflePlacement moved = placement(new ReduceAssignment(0, SELF, 0, 30), new ReduceAssignment(1, B, 0, 30));
    List<ReduceMove> moves = List.of(new ReduceMove(SHUFFLE.shuffleId(), 1, SELF, B));
    int locates = cluster.locates();
    storage.store().scheduled(moved, 0, moves);
    p.onScheduled(moved, moves);
    assertEquals(locates, cluster.locates(), "reduce 0, queued already, is not located again");

    assertTrue(settled.isDone(), "the read of the moved reduce goes to the block's holder");
    cluster.releaseAll();
    for (int map = 0; map < 3; map++) {
      assertTrue(storage.store().contains(block(map, 0)), "reduce 0's map " + map + " landed");
    }
    assertEquals(List.of(), cluster.fetchedIds().stream().filter(id -> id.reduceId() == 1).toList(),
        "the one fetch under way at the move was reduce 0's");
    assertEquals(0, p.backlog()[0]);
    assertEquals(0, p.inflight());
  }

  @Test
  void aNoticeMadeBeforeItsReduceMovedAway_arrivingAfterTheMove_copiesNothing() {
    Prefetcher p = prefetcher(4, 1 << 20, 0);
    schedule(p, placement(new ReduceAssignment(0, SELF, 0, 20), new ReduceAssignment(1, SELF, 0, 20)));
    ShufflePlacement moved = placement(new ReduceAssignment(0, SELF, 0, 20), new ReduceAssignment(1, B, 0, 20));
    List<ReduceMove> moves = List.of(new ReduceMove(SHUFFLE.shuffleId(), 1, SELF, B));
    storage.store().scheduled(moved, 0, moves);
    p.onScheduled(moved, moves);
    cluster.hold(A, block(5, 0), 40).hold(A, block(5, 1), 40);

    p.onMapOutput(SHUFFLE, A, List.of(new BlockSize(block(5, 0), 40), new BlockSize(block(5, 1), 40)));

    assertEquals(List.of(block(5, 0)), cluster.fetchedIds(), "reduce 1 is B's now");
  }

  @Test
  void aReduceMovedHere_whenItsShuffleHadNoneHere_isLocatedOnce_andCopied() {
    cluster.hold(A, block(0, 1), 10);
    Prefetcher p = prefetcher(4, 1 << 20, 0);
    schedule(p, placement(new ReduceAssignment(0, A, 0, 10), new ReduceAssignment(1, B, 0, 10)));
    assertEquals(0, cluster.locates());

    ShufflePlacement moved = placement(new ReduceAssignment(0, A, 0, 10), new ReduceAssignment(1, SELF, 0, 10));
    List<ReduceMove> moves = List.of(new ReduceMove(SHUFFLE.shuffleId(), 1, B, SELF));
    storage.store().scheduled(moved, 0, moves);
    p.onScheduled(moved, moves);

    assertEquals(1, cluster.locates(), "named by the placement and by the move, located once");
    assertArrayEquals(cluster.bytesOf(block(0, 1)), stored(block(0, 1)));
  }

  @Test
  void aBandwidthLimit_spacesTheFetchesByTheirBytes_onTheClock() {
    for (int map = 0; map < 3; map++) {
      cluster.hold(A, block(map, 0), 1000);
    }
    Prefetcher p = prefetcher(3, 1000, 10_000);

    schedule(p, placement(new ReduceAssignment(0, SELF, 0, 3000)));

    // 1000 bytes at 10,000 bytes/s: each fetch 100 ms after the one before
    assertEquals(List.of(100_000_000L, 200_000_000L), timer.delaysNanos);
    assertEquals(3, cluster.fetches().size());
  }

  @Test
  void aDisabledPrefetcher_copiesNothing() {
    cluster.hold(A, block(0, 0), 10);
    Prefetcher p = new Prefetcher(storage.store(), storage.copies(), cluster, cluster, storage.placements(), SELF,
        counters, timer, new Prefetcher.Limits(false, 4, 2, 1 << 20, 0), clock);

    schedule(p, placement(new ReduceAssignment(0, SELF, 0, 10)));
    p.onMapOutput(SHUFFLE, A, List.of(new BlockSize(block(0, 0), 10)));

    assertEquals(0, cluster.locates());
    assertEquals(List.of(), cluster.fetches());
  }
}
