package org.scache.worker.requests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.scache.common.BlockId;
import org.scache.common.Clock;
import org.scache.common.ScacheException;
import org.scache.common.ShuffleKey;
import org.scache.common.WorkerInfo;
import org.scache.common.protocol.Status;
import org.scache.common.shuffle.BlockSize;
import org.scache.common.shuffle.FinalAttempt;
import org.scache.common.shuffle.ReduceAssignment;
import org.scache.common.shuffle.ShuffleActivity;
import org.scache.common.shuffle.ShufflePlacement;
import org.scache.worker.cluster.BlockBatch;
import org.scache.worker.cluster.ScriptedCluster;
import org.scache.worker.counters.WorkerCounters;
import org.scache.worker.prefetch.InFlightCopies;
import org.scache.worker.store.MemoryPool;
import org.scache.worker.store.PendingPut;
import org.scache.worker.store.WorkerStorage;

class BlockReaderTest {
  private static final WorkerInfo SELF = new WorkerInfo("w-self", "self", 1);
  private static final WorkerInfo A = new WorkerInfo("w-a", "a", 2);
  private static final WorkerInfo B = new WorkerInfo("w-b", "b", 3);
  private static final ShuffleKey SHUFFLE = new ShuffleKey("app", 0);
  private static final long NO_WAIT = 0;

  @TempDir
  Path dir;
  private MemoryPool pool;
  private WorkerStorage storage;
  private final ScriptedCluster cluster = new ScriptedCluster();
  private final WorkerCounters counters = new WorkerCounters();
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
  private InFlightCopies copies = InFlightCopies.NONE;

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

  private BlockReader reader() {
    return new BlockReader(storage.store(), storage.reads(), cluster, cluster, SELF, Duration.ofSeconds(5), counters,
        new ReduceInputLocator(cluster, timer, Clock.SYSTEM, Duration.ofSeconds(5)), storage.placements(),
        copies);
  }

  private static BlockId block(int map, int reduce) {
    return new BlockId(SHUFFLE.appId(), SHUFFLE.shuffleId(), map, 0, reduce);
  }

  /** Puts a block here, {@code size} bytes of its map id, and tells the scripted master it is held here. */
  private void putHere(BlockId id, int size) {
    cluster.hold(SELF, id, size);
    PendingPut p = storage.puts().begin(id, size);
    ByteBuf data = Unpooled.wrappedBuffer(cluster.bytesOf(id));
    p.write(data);
    data.release();
    storage.puts().commit(p);
  }

  private static byte[] bytes(ByteBuf b) {
    try {
      return ByteBufUtil.getBytes(b);
    } finally {
      b.release();
    }
  }

  private byte[] concatenated(BlockId... ids) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (BlockId id : ids) {
      out.writeBytes(cluster.bytesOf(id));
    }
    return out.toByteArray();
  }

  private static Status statusOf(CompletableFuture<?> f) {
    CompletionException e = assertThrows(CompletionException.class, f::join);
    return ScacheException.from(e).status();
  }

  @Test
  void aBlockHeldHere_isReadHere_andMarkedConsumed_withoutAskingTheMaster() {
    putHere(block(0, 0), 100);

    byte[] got = bytes(reader().readBlock(block(0, 0)).join());

    assertArrayEquals(cluster.bytesOf(block(0, 0)), got);
    assertTrue(storage.store().isConsumed(block(0, 0)));
    assertEquals(0, cluster.locates());
    assertEquals(1, counters.localReadBlocks.sum());
  }

  @Test
  void aBlockHeldElsewhere_isFetchedFromTheHolderTheMasterNames() {
    cluster.hold(A, block(0, 0), 100);

    byte[] got = bytes(reader().readBlock(block(0, 0)).join());

    assertArrayEquals(cluster.bytesOf(block(0, 0)), got);
    assertEquals(List.of(new ScriptedCluster.Fetch(A, List.of(block(0, 0)))), cluster.fetches());
    assertEquals(100, counters.remoteReadBytes.sum());
  }

  @Test
  void aBlockNoLiveWorkerHolds_isNotFound() {
    assertEquals(Status.BLOCK_NOT_FOUND, statusOf(reader().readBlock(block(0, 0))));
  }

  @Test
  void whenTheMasterCannotBeReached_theBlockIsLookedForOnTheWorkersOfItsPlacement_itsReducesWorkerFirst() {
    cluster.hold(B, block(0, 0), 100);
    storage.store().scheduled(new ShufflePlacement(SHUFFLE.appId(), SHUFFLE.shuffleId(), "test",
        List.of(new ReduceAssignment(0, B, 0, 100), new ReduceAssignment(1, A, 0, 100))), 0, List.of());
    cluster.masterDown();

    byte[] got = bytes(reader().readBlock(block(0, 0)).join());

    assertArrayEquals(cluster.bytesOf(block(0, 0)), got);
    assertEquals(B, cluster.fetches().get(0).holder());
  }

  @Test
  void whenTheMasterCannotBeReached_andNoWorkerOfThePlacementHoldsTheBlock_theReadFailsWithTheMastersStatus() {
    storage.store().scheduled(new ShufflePlacement(SHUFFLE.appId(), SHUFFLE.shuffleId(), "test",
        List.of(new ReduceAssignment(0, A, 0, 100), new ReduceAssignment(1, B, 0, 100))), 0, List.of());
    cluster.masterDown();

    assertEquals(Status.CONNECTION_FAILED, statusOf(reader().readBlock(block(0, 0))));
    assertEquals(2, cluster.fetches().size());
  }

  @Test
  void aReducesInput_isAssembledInMapOrder_fromHereAndFromEachHolderInOneFetch() {
    putHere(block(0, 0), 10);
    cluster.hold(A, block(1, 0), 20).hold(B, block(2, 0), 30).hold(A, block(3, 0), 40).hold(A, block(3, 1), 50);

    BlockReader.ReduceInput input = reader().readReduceInput(SHUFFLE, 0, NO_WAIT).join();

    assertEquals(4, input.numMaps());
    assertEquals(4, input.finishedMaps());
    assertEquals(List.of(new BlockSize(block(0, 0), 10), new BlockSize(block(1, 0), 20),
        new BlockSize(block(2, 0), 30), new BlockSize(block(3, 0), 40)), input.blocks().sizes());
    assertArrayEquals(concatenated(block(0, 0), block(1, 0), block(2, 0), block(3, 0)),
        bytes(input.blocks().payload()));
    assertEquals(List.of(new ScriptedCluster.Fetch(A, List.of(block(1, 0), block(3, 0))),
        new ScriptedCluster.Fetch(B, List.of(block(2, 0)))), cluster.fetches());
    ShuffleActivity activity = counters.activity.drain().get(0);
    assertEquals(List.of(new ShuffleActivity.ReduceRead(0, false, 10, 90)), activity.reads());
  }

  @Test
  void aReducesInput_waitsForBlocksOnTheirWayHere_andReadsThemHere_whenTheyLand() {
    cluster.hold(A, block(0, 0), 10).hold(A, block(1, 0), 10);
    CompletableFuture<Void> landing = new CompletableFuture<>();
    copies = ids -> landing;

    CompletableFuture<BlockReader.ReduceInput> read = reader().readReduceInput(SHUFFLE, 0, NO_WAIT);
    assertFalse(read.isDone());
    // the prefetch lands both blocks here
    storage.copies().land(List.of(new BlockSize(block(0, 0), 10), new BlockSize(block(1, 0), 10)),
        Unpooled.wrappedBuffer(concatenated(block(0, 0), block(1, 0))));
    landing.complete(null);

    BlockReader.ReduceInput input = read.join();
    assertArrayEquals(concatenated(block(0, 0), block(1, 0)), bytes(input.blocks().payload()));
    assertEquals(List.of(), cluster.fetches());
    assertEquals(2, counters.prefetchedReadBlocks.sum());
  }

  @Test
  void aReducesInputReadInParts_givesWhatIsHereFirst_thenEachBlockAsItLands_thenTheRestFromItsHolder_thenNothing() {
    putHere(block(0, 0), 10);
    cluster.hold(A, block(1, 0), 20).hold(A, block(2, 0), 30);
    CompletableFuture<Void> landing = new CompletableFuture<>();
    copies = ids -> landing;
    BlockReader reader = reader();

    BlockReader.ReduceInput first = reader.readReduceInputPart(SHUFFLE, 0, NO_WAIT, Set.of(), List.of()).join();
    assertEquals(List.of(new BlockSize(block(0, 0), 10)), first.blocks().sizes());
    assertArrayEquals(concatenated(block(0, 0)), bytes(first.blocks().payload()));

    CompletableFuture<BlockReader.ReduceInput> second =
        reader.readReduceInputPart(SHUFFLE, 0, NO_WAIT, Set.of(0), List.of());
    assertFalse(second.isDone());
    storage.copies().land(List.of(new BlockSize(block(1, 0), 20)), Unpooled.wrappedBuffer(concatenated(block(1, 0))));
    landing.complete(null);
    assertEquals(List.of(new BlockSize(block(1, 0), 20)), second.join().blocks().sizes());
    assertArrayEquals(concatenated(block(1, 0)), bytes(second.join().blocks().payload()));
    assertEquals(List.of(), cluster.fetches());
    assertEquals(List.of(), counters.activity.drain(), "the read is counted once, when it is complete");

    // nothing else is on its way here (landing has settled): the rest comes from its holder
    BlockReader.ReduceInput third = reader.readReduceInputPart(SHUFFLE, 0, NO_WAIT, Set.of(0, 1), List.of()).join();
    assertArrayEquals(concatenated(block(2, 0)), bytes(third.blocks().payload()));
    assertEquals(List.of(new ScriptedCluster.Fetch(A, List.of(block(2, 0)))), cluster.fetches());
    assertEquals(List.of(new ShuffleActivity.ReduceRead(0, false, 30, 30)), counters.activity.drain().get(0).reads());

    BlockReader.ReduceInput none = reader.readReduceInputPart(SHUFFLE, 0, NO_WAIT, Set.of(0, 1, 2), List.of()).join();
    assertEquals(List.of(), none.blocks().sizes());
    assertEquals(3, none.numMaps());
    assertEquals(List.of(), counters.activity.drain());
    assertEquals(1, cluster.locates(), "the input is located once for all its parts");
  }

  @Test
  void aReducesInputReadInParts_whoseNamedAttemptsAreAllHeldHere_isReadWithoutAskingTheMaster() {
    putHere(block(0, 0), 10);
    BlockId secondAttempt = new BlockId(SHUFFLE.appId(), SHUFFLE.shuffleId(), 1, 1, 0);
    putHere(block(1, 0), 20);
    putHere(secondAttempt, 25);
    List<FinalAttempt> named = List.of(new FinalAttempt(0, 0), new FinalAttempt(1, 1));
    BlockReader reader = reader();

    BlockReader.ReduceInput first = reader.readReduceInputPart(SHUFFLE, 0, NO_WAIT, Set.of(), named).join();
    assertEquals(List.of(new BlockSize(block(0, 0), 10), new BlockSize(secondAttempt, 25)), first.blocks().sizes());
    assertArrayEquals(concatenated(block(0, 0), secondAttempt), bytes(first.blocks().payload()));
    BlockReader.ReduceInput none = reader.readReduceInputPart(SHUFFLE, 0, NO_WAIT, Set.of(0, 1), named).join();
    assertEquals(List.of(), none.blocks().sizes());

    assertEquals(0, cluster.locates());
    assertEquals(1, counters.readsLocatedHere.sum());
    assertEquals(List.of(new ShuffleActivity.ReduceRead(0, false, 35, 0)), counters.activity.drain().get(0).reads());
  }

  @Test
  void aReducesInputReadInParts_withANamedAttemptNotHeldHere_isLocatedAtTheMaster_andTheRestFetched() {
    putHere(block(0, 0), 10);
    cluster.hold(A, block(1, 0), 20);
    List<FinalAttempt> named = List.of(new FinalAttempt(0, 0), new FinalAttempt(1, 0));
    BlockReader reader = reader();

    BlockReader.ReduceInput first = reader.readReduceInputPart(SHUFFLE, 0, NO_WAIT, Set.of(), named).join();
    BlockReader.ReduceInput second = reader.readReduceInputPart(SHUFFLE, 0, NO_WAIT, Set.of(0), named).join();

    assertEquals(List.of(new BlockSize(block(0, 0), 10)), first.blocks().sizes());
    assertArrayEquals(concatenated(block(1, 0)), bytes(second.blocks().payload()));
    assertEquals(1, cluster.locates());
    assertEquals(0, counters.readsLocatedHere.sum());
  }

  @Test
  void aReducesInputFromAHolderThatIsGone_failsAsNotFound_soTheMapsAreRunAgain() {
    putHere(block(0, 0), 10);
    cluster.hold(A, block(1, 0), 10);
    cluster.unreachable(A);

    assertEquals(Status.BLOCK_NOT_FOUND, statusOf(reader().readReduceInput(SHUFFLE, 0, NO_WAIT)));
  }

  @Test
  void aReducesInputWithMapsUnfinished_isPartialWithoutAWait_andIncompleteAfterOne() {
    cluster.hold(A, block(0, 0), 10).maps(SHUFFLE, 3);

    BlockReader.ReduceInput partial = reader().readReduceInput(SHUFFLE, 0, NO_WAIT).join();
    partial.blocks().payload().release();
    assertEquals(3, partial.numMaps());
    assertEquals(1, partial.finishedMaps());

    assertEquals(Status.INPUT_INCOMPLETE, statusOf(reader().readReduceInput(SHUFFLE, 0, 50)));
  }

  @Test
  void aFetchFromAnotherWorker_isServedAllOrNone() {
    putHere(block(0, 0), 10);
    putHere(block(1, 0), 20);

    BlockBatch both = reader().serveFetch(List.of(block(0, 0), block(1, 0))).join();
    assertArrayEquals(concatenated(block(0, 0), block(1, 0)), bytes(both.payload()));
    assertEquals(30, counters.servedFetchBytes.sum());

    assertEquals(Status.BLOCK_NOT_FOUND, statusOf(reader().serveFetch(List.of(block(0, 0), block(2, 0)))));
  }
}
