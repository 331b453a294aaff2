package org.scache.worker.requests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.scache.common.BlockId;
import org.scache.common.Clock;
import org.scache.common.ShuffleKey;
import org.scache.common.WorkerInfo;
import org.scache.common.auth.Credentials;
import org.scache.common.auth.RequestAuthorizer;
import org.scache.common.ha.Locator;
import org.scache.common.protocol.Ack;
import org.scache.common.protocol.BlockData;
import org.scache.common.protocol.BlocksData;
import org.scache.common.protocol.ErrorAnswer;
import org.scache.common.protocol.FetchBlocks;
import org.scache.common.protocol.GetBlock;
import org.scache.common.protocol.GetReduceInput;
import org.scache.common.protocol.GetWorkerStats;
import org.scache.common.protocol.InboundFrame;
import org.scache.common.protocol.LocalSegment;
import org.scache.common.protocol.LocalSegments;
import org.scache.common.protocol.MapFinished;
import org.scache.common.protocol.Message;
import org.scache.common.protocol.OpenLocal;
import org.scache.common.protocol.OutboundFrame;
import org.scache.common.protocol.PayloadChunk;
import org.scache.common.protocol.PutBlock;
import org.scache.common.protocol.RegisterWorker;
import org.scache.common.protocol.ShuffleScheduled;
import org.scache.common.protocol.Status;
import org.scache.common.protocol.WorkerStats;
import org.scache.common.shuffle.BlockSize;
import org.scache.common.shuffle.ReduceAssignment;
import org.scache.common.shuffle.ShufflePlacement;
import org.scache.common.testing.Await;
import org.scache.common.testing.ScriptedConnections;
import org.scache.worker.cluster.ScriptedCluster;
import org.scache.worker.counters.WorkerCounters;
import org.scache.worker.local.LocalLeases;
import org.scache.worker.master.MasterCalls;
import org.scache.worker.master.MasterLink;
import org.scache.worker.master.MasterMessages;
import org.scache.worker.prefetch.Prefetcher;
import org.scache.worker.store.BlockStore;
import org.scache.worker.store.MemoryPool;
import org.scache.worker.store.WorkerStorage;

class WorkerRequestHandlerTest {
  private static final WorkerInfo SELF = new WorkerInfo("w-self", "self", 1);
  private static final WorkerInfo A = new WorkerInfo("w-a", "a", 2);
  private static final ShuffleKey SHUFFLE = new ShuffleKey("app", 0);
  private static final Duration WAIT = Duration.ofSeconds(10);

  @TempDir
  Path dir;
  private MemoryPool pool;
  private WorkerStorage storage;
  private MasterCalls masterCalls;
  private MasterLink masterLink;
  private final ScriptedCluster cluster = new ScriptedCluster();
  private final ScriptedConnections master = new ScriptedConnections((peer, m) ->
      ScriptedConnections.answer(new Ack()));
  private final WorkerCounters counters = new WorkerCounters();
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
  private boolean digestRequired;
  private Supplier<LocalAccess> localAccess = () -> {
    throw new IllegalStateException("no shared memory in this test");
  };
  private InFlightPuts inFlight = InFlightPuts.unbounded(Duration.ofSeconds(30), Clock.SYSTEM);
  private EmbeddedChannel channel;
  private long nextId = 1;

  @BeforeEach
  void open() throws Exception {
    pool = new MemoryPool(dir, "test", 1 << 20, 512 << 10, false);
    storage = WorkerStorage.inMemory(pool);
    masterCalls = new MasterCalls(Locator.fixed("master:7000"), master,
        Credentials.cluster("c".getBytes(StandardCharsets.UTF_8)), Duration.ofSeconds(5));
    masterLink = new MasterLink(masterCalls, SELF, storage, 100, Duration.ofHours(1), app -> { }, counters.activity);
  }

  @AfterEach
  void close() {
    channel.finishAndReleaseAll();
    masterLink.close();
    masterCalls.close();
    timer.shutdownNow();
    storage.close();
    pool.close();
  }

  private void ready() {
    BlockStore store = storage.store();
    Prefetcher prefetcher = new Prefetcher(store, storage.copies(), cluster, cluster, storage.placements(), SELF,
        counters, timer,
        new Prefetcher.Limits(true, 4, 2, 1 << 20, 0), Clock.SYSTEM);
    BlockReader reader = new BlockReader(store, storage.reads(), cluster, cluster, SELF, Duration.ofSeconds(5),
        counters, new ReduceInputLocator(cluster, timer, Clock.SYSTEM, Duration.ofSeconds(5)), storage.placements(),
            prefetcher);
    AppSecrets secrets = new AppSecrets(app -> CompletableFuture.completedFuture(new byte[16]));
    WorkerRequestHandler.Parts parts = new WorkerRequestHandler.Parts(storage.puts(), reader,
        new MasterMessages(store, prefetcher),
        new ApplicationShuffles(store, prefetcher, masterLink, secrets, counters),
        counters, digestRequired, () -> Map.of("blocks", (long) storage.blockCount()), localAccess, inFlight);
    channel = new EmbeddedChannel(new WorkerRequestHandler(parts));
  }

  private static BlockId block(int map, int reduce) {
    return new BlockId(SHUFFLE.appId(), SHUFFLE.shuffleId(), map, 0, reduce);
  }

  /** Sends a request without payload; returns its id. */
  private long send(Message m) {
    long id = nextId++;
    channel.writeInbound(new InboundFrame(id, m, Optional.empty(), 0));
    return id;
  }

  /** Sends a request whose payload follows in {@code chunks}; returns its id. */
  private long send(Message m, byte[]... chunks) {
    long id = nextId++;
    long length = 0;
    for (byte[] c : chunks) {
      length += c.length;
    }
    channel.writeInbound(new InboundFrame(id, m, Optional.empty(), length));
    for (int i = 0; i < chunks.length; i++) {
      channel.writeInbound(new PayloadChunk(Unpooled.wrappedBuffer(chunks[i]), i == chunks.length - 1));
    }
    return id;
  }

  /** The next answer, waiting for answers written from other threads. */
  private OutboundFrame answer() {
    Await.until(() -> {
      channel.runPendingTasks();
      return !channel.outboundMessages().isEmpty();
    }, WAIT, "an answer");
    return channel.readOutbound();
  }

  private static byte[] payloadOf(OutboundFrame f) {
    ByteBuf b = f.payload();
    try {
      return ByteBufUtil.getBytes(b);
    } finally {
      b.release();
    }
  }

  private static Status errorOf(OutboundFrame f) {
    return assertInstanceOf(ErrorAnswer.class, f.message()).status();
  }

  private static byte[] filled(int size, int value) {
    byte[] b = new byte[size];
    java.util.Arrays.fill(b, (byte) value);
    return b;
  }

  @Test
  void aPut_streamsItsPayloadIntoTheStore_andIsAcknowledgedOnceWhole() {
    ready();

    long id = nextId++;
    channel.writeInbound(new InboundFrame(id, new PutBlock(block(0, 0)), Optional.empty(), 150));
    channel.writeInbound(new PayloadChunk(Unpooled.wrappedBuffer(filled(100, 1)), false));
    channel.runPendingTasks();
    assertTrue(channel.outboundMessages().isEmpty(), "no answer before the last of the payload");
    assertFalse(storage.store().contains(block(0, 0)));
    channel.writeInbound(new PayloadChunk(Unpooled.wrappedBuffer(filled(50, 2)), true));

    OutboundFrame ack = answer();
    assertEquals(id, ack.requestId());
    assertInstanceOf(Ack.class, ack.message());
    ByteBuf stored = storage.reads().read(block(0, 0)).join().orElseThrow();
    assertEquals(150, stored.readableBytes());
    assertEquals(2, stored.getByte(149));
    stored.release();
  }

  @Test
  void aPutWithoutTheDigestTheWorkerRequires_isRefused_storesNothing_andTheConnectionServesOn() {
    digestRequired = true;
    ready();

    send(new PutBlock(block(0, 0)), filled(100, 1));
    assertEquals(Status.AUTH_FAILED, errorOf(answer()));
    assertFalse(storage.store().contains(block(0, 0)));
    assertEquals(0, pool.usedBytes());

    send(new GetWorkerStats());
    assertInstanceOf(WorkerStats.class, answer().message());
  }

  @Test
  void aConnectionClosedInTheMiddleOfAPut_givesItsMemoryBack() {
    ready();
    channel.writeInbound(new InboundFrame(nextId++, new PutBlock(block(0, 0)), Optional.empty(), 200));
    channel.writeInbound(new PayloadChunk(Unpooled.wrappedBuffer(filled(100, 1)), false));

    channel.close();

    assertFalse(storage.store().contains(block(0, 0)));
    assertEquals(0, pool.usedBytes());
  }

  @Test
  void aGet_ofABlockHeldHere_answersItsBytes() {
    ready();
    send(new PutBlock(block(0, 0)), filled(10, 7));
    answer();

    send(new GetBlock(block(0, 0)));

    OutboundFrame data = answer();
    assertEquals(new BlockData(block(0, 0)), data.message());
    assertArrayEquals(filled(10, 7), payloadOf(data));
  }

  @Test
  void aReducesInput_isAnsweredInMapOrder_withTheShufflesMapCounts() {
    ready();
    cluster.hold(SELF, block(0, 0), 10).hold(A, block(1, 0), 20).maps(SHUFFLE, 3);
    send(new PutBlock(block(0, 0)), cluster.bytesOf(block(0, 0)));
    answer();

    send(new GetReduceInput(SHUFFLE.appId(), SHUFFLE.shuffleId(), 0, 0));

    OutboundFrame input = answer();
    assertEquals(new BlocksData(3, 2, List.of(new BlockSize(block(0, 0), 10),
        new BlockSize(block(1, 0), 20))), input.message());
    byte[] bytes = payloadOf(input);
    assertEquals(30, bytes.length);
    assertEquals(1, bytes[29], "map 1's bytes follow map 0's");
  }

  @Test
  void aFetchFromAnotherWorker_isAnsweredWithEveryBlock_orNotFound() {
    ready();
    send(new PutBlock(block(0, 0)), filled(10, 1));
    answer();

    send(new FetchBlocks(List.of(block(0, 0))));
    OutboundFrame found = answer();
    assertEquals(new BlocksData(0, 0, List.of(new BlockSize(block(0, 0), 10))), found.message());
    payloadOf(found);

    send(new FetchBlocks(List.of(block(0, 0), block(1, 0))));
    assertEquals(Status.BLOCK_NOT_FOUND, errorOf(answer()));
  }

  @Test
  void aMapFinished_isAcknowledgedOnceTheMasterHasIt() {
    ready();

    send(new MapFinished(SHUFFLE.appId(), SHUFFLE.shuffleId(), 4, 1));

    assertInstanceOf(Ack.class, answer().message());
    assertEquals(List.of(new MapFinished(SHUFFLE.appId(), SHUFFLE.shuffleId(), 4, 1)),
        master.sentOfType(MapFinished.class));
  }

  @Test
  void theMastersPlacement_isLearned_andWhatIsPlacedHereIsPrefetched() {
    ready();
    cluster.hold(A, block(0, 0), 10);
    ShufflePlacement placement = new ShufflePlacement(SHUFFLE.appId(), SHUFFLE.shuffleId(), "test",
        List.of(new ReduceAssignment(0, SELF, 0, 10), new ReduceAssignment(1, A, 0, 10)));

    send(new ShuffleScheduled(placement, List.of(), 0));

    assertInstanceOf(Ack.class, answer().message());
    assertTrue(storage.placements().isPlaced(SHUFFLE));
    assertTrue(storage.store().isCopy(block(0, 0)));
  }

  @Test
  void openLocal_isAnsweredWithTheSegmentFilesOfTheSharedReserve() throws Exception {
    try (MemoryPool shared = new MemoryPool(dir.resolve("shared"), "test", 1 << 20, 512 << 10, false, true);
        WorkerStorage sharedStorage = WorkerStorage.inMemory(shared)) {
      RequestAuthorizer authorizer = new RequestAuthorizer("c".getBytes(StandardCharsets.UTF_8),
          new AppSecrets(app -> CompletableFuture.completedFuture(new byte[16])), () -> { });
      localAccess = () -> new LocalAccess(authorizer, new LocalLeases(shared, sharedStorage.store(),
          sharedStorage.puts(), counters, SELF.workerId()), Duration.ofMinutes(1));
      ready();

      send(new OpenLocal("app"));

      List<LocalSegment> expected = shared.sharedFiles().stream()
          .map(f -> new LocalSegment(f.index(), f.path().toString(), f.size())).toList();
      assertEquals(2, expected.size());
      assertEquals(new LocalSegments(expected), answer().message());
      channel.close();
    }
  }

  @Test
  void aMessageWorkersDoNotServe_isAnsweredUnknownType_andTheConnectionServesOn() {
    ready();

    send(new RegisterWorker(A, 1, 0));
    assertEquals(Status.UNKNOWN_MESSAGE_TYPE, errorOf(answer()));

    send(new GetWorkerStats());
    assertEquals(new WorkerStats(Map.of("blocks", 0L)), answer().message());
  }

  @Test
  void blockData_waitsWhileThePeerDoesNotRead_andTheConnectionIsNotRead_untilItIsWritableAgain() {
    ready();
    for (int m = 0; m < 3; m++) {
      send(new PutBlock(block(m, 0)), filled(1000, m));
      answer();
    }
    // the outbound buffer past its high water mark, as with a peer that does not read
    channel.unsafe().outboundBuffer().setUserDefinedWritability(1, false);
    assertFalse(channel.isWritable());

    for (int m = 0; m < 3; m++) {
      send(new GetBlock(block(m, 0)));
    }
    channel.runPendingTasks();
    assertTrue(channel.outboundMessages().isEmpty(), "no block data is written while the peer does not read");
    assertFalse(channel.config().isAutoRead(), "and no more requests are read");

    channel.unsafe().outboundBuffer().setUserDefinedWritability(1, true);
    channel.runPendingTasks();
    assertTrue(channel.config().isAutoRead());
    for (int m = 0; m < 3; m++) {
      OutboundFrame data = answer();
      assertEquals(new BlockData(block(m, 0)), data.message());
      assertArrayEquals(filled(1000, m), payloadOf(data));
    }
  }

  @Test
  void blockDataWaitingForThePeer_isReleased_whenTheConnectionCloses() {
    ready();
    send(new PutBlock(block(0, 0)), filled(1000, 1));
    answer();
    channel.unsafe().outboundBuffer().setUserDefinedWritability(1, false);
    send(new GetBlock(block(0, 0)));
    channel.runPendingTasks();

    channel.close();
    storage.store().removeShuffle(SHUFFLE);

    assertEquals(0, pool.usedBytes(), "the answer's hold on the block's memory went with the connection");
  }
}
