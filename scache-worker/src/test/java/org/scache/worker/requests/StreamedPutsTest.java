package org.scache.worker.requests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.scache.common.BlockId;
import org.scache.common.Clock;
import org.scache.common.QuotaOwner;
import org.scache.common.protocol.Ack;
import org.scache.common.protocol.ErrorAnswer;
import org.scache.common.protocol.InboundFrame;
import org.scache.common.protocol.OutboundFrame;
import org.scache.common.protocol.PayloadChunk;
import org.scache.common.protocol.PutBlock;
import org.scache.common.protocol.Status;
import org.scache.common.testing.Await;
import org.scache.worker.counters.WorkerCounters;
import org.scache.worker.store.MemoryPool;
import org.scache.worker.store.WorkerStorage;

/**
 * A connection's streamed puts against the worker's real store, with the moment a put's memory is
 * made in the test's hands: puts in flight are bounded per application and per connection, a
 * connection whose put waits for memory is not read, and a stalled put gives its memory back.
 */
class StreamedPutsTest {
  private static final Duration WAIT = Duration.ofSeconds(10);

  @TempDir
  Path dir;
  private MemoryPool pool;
  private WorkerStorage storage;
  private final WorkerCounters counters = new WorkerCounters();
  /** Completed when the store may make the memory of the puts started. */
  private CompletableFuture<Void> memoryMade = CompletableFuture.completedFuture(null);
  private InFlightPuts inFlight = InFlightPuts.unbounded(Duration.ofSeconds(30), Clock.SYSTEM);
  private final List<Connection> connections = new ArrayList<>();

  @BeforeEach
  void open() throws Exception {
    pool = new MemoryPool(dir, "test", 1 << 20, 512 << 10, false);
    storage = WorkerStorage.inMemory(pool);
  }

  @AfterEach
  void close() {
    connections.forEach(c -> c.channel.finishAndReleaseAll());
    storage.close();
    pool.close();
  }

  /** One connection to the worker, its puts reassembled by the class under test. */
  private final class Connection {
    final ReadPauses reads = new ReadPauses();
    final StreamedPuts puts;
    final EmbeddedChannel channel;
    long nextId = 1;

    Connection() {
      CompletableFuture<Void> gate = memoryMade;
      puts = new StreamedPuts(storage.puts(), (id, n) -> gate.thenCompose(v -> storage.puts().beginAsync(id, n)),
          inFlight, counters, false, reads);
      reads.onResume(puts::readsResumed);
      channel = new EmbeddedChannel(new ChannelInboundHandlerAdapter() {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
          if (msg instanceof InboundFrame f) {
            puts.start(ctx, f, (PutBlock) f.message());
          } else {
            puts.onPayload(ctx, (PayloadChunk) msg);
          }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
          puts.abortAll();
        }
      });
      connections.add(this);
    }

    void announce(BlockId id, long length) {
      channel.writeInbound(new InboundFrame(nextId++, new PutBlock(id), Optional.empty(), length));
    }

    void send(int bytes, boolean last) {
      channel.writeInbound(new PayloadChunk(Unpooled.wrappedBuffer(new byte[bytes]), last));
    }

    void put(BlockId id, int length) {
      announce(id, length);
      send(length, true);
    }

    OutboundFrame answer() {
      Await.until(() -> {
        channel.runPendingTasks();
        channel.runScheduledPendingTasks();
        return !channel.outboundMessages().isEmpty();
      }, WAIT, "an answer");
      return channel.readOutbound();
    }

    boolean reading() {
      return channel.config().isAutoRead();
    }
  }

  private static BlockId block(String app, int map) {
    return new BlockId(app, 0, map, 0, 0);
  }

  private static Status statusOf(OutboundFrame f) {
    return f.message() instanceof ErrorAnswer e ? e.status() : Status.OK;
  }

  @Test
  void putsInFlight_pastTheApplicationsShare_areAnsweredRetryLater_andAnotherApplicationPuts() {
    inFlight = new InFlightPuts(300, 1 << 20, Duration.ofSeconds(30), Clock.SYSTEM);
    Connection stalled = new Connection();
    stalled.announce(block("app", 0), 200);
    stalled.send(100, false);
    Connection second = new Connection();

    second.put(block("app", 1), 200);
    OutboundFrame refused = second.answer();
    assertEquals(Status.RETRY_LATER, statusOf(refused));
    assertTrue(((ErrorAnswer) refused.message()).message().contains("scache.worker.put.inflight.application.share"));
    assertEquals(200, inFlight.heldBy("app"));
    second.put(block("other", 0), 200);
    assertInstanceOf(Ack.class, second.answer().message(), "another application's put is not held up");

    stalled.channel.close();
    assertEquals(0, inFlight.heldBy("app"));
    second.put(block("app", 1), 200);
    assertInstanceOf(Ack.class, second.answer().message());
  }

  @Test
  void aUsersSecondApplication_sharesTheFirstsBoundOfPutsInFlight() {
    inFlight = new InFlightPuts(300, 1 << 20, Duration.ofSeconds(30), Clock.SYSTEM,
        app -> app.startsWith("alice-") ? QuotaOwner.of(app, "alice") : QuotaOwner.ofApplication(app));
    Connection stalled = new Connection();
    stalled.announce(block("alice-1", 0), 200);
    stalled.send(100, false);
    Connection second = new Connection();

    second.put(block("alice-2", 0), 200);
    OutboundFrame refused = second.answer();
    assertEquals(Status.RETRY_LATER, statusOf(refused));
    assertTrue(((ErrorAnswer) refused.message()).message().contains("user alice"), refused.message().toString());
    second.put(block("bob-1", 0), 200);
    assertInstanceOf(Ack.class, second.answer().message(), "another user's put is not held up");
  }

  @Test
  void anApplicationsOnlyPutInFlight_isLetThrough_evenPastItsShare() {
    inFlight = new InFlightPuts(300, 1 << 20, Duration.ofSeconds(30), Clock.SYSTEM);
    Connection c = new Connection();
    c.put(block("app", 0), 400);
    assertInstanceOf(Ack.class, c.answer().message(), "the store, not the share of puts in flight, decides");
  }

  @Test
  void aConnectionsPutsInFlight_pastItsBound_areAnsweredRetryLater_butItsOnlyPutIsLetThrough() {
    inFlight = new InFlightPuts(1 << 20, 300, Duration.ofSeconds(30), Clock.SYSTEM);
    memoryMade = new CompletableFuture<>();
    Connection c = new Connection();
    c.put(block("app", 0), 200);
    c.put(block("app", 1), 200);
    OutboundFrame refused = c.answer();
    assertEquals(2, refused.requestId());
    assertEquals(Status.RETRY_LATER, statusOf(refused));

    memoryMade.complete(null);
    assertInstanceOf(Ack.class, c.answer().message());
    c.put(block("app", 2), 400);
    assertInstanceOf(Ack.class, c.answer().message(), "a put larger than the bound, alone on its connection");
  }

  @Test
  void aPutWaitingForMemory_stopsReadingTheConnection_soItsQueuedPayloadStaysWithinOneRead() {
    memoryMade = new CompletableFuture<>();
    Connection c = new Connection();
    int chunk = 16 << 10;
    int chunks = 16;
    // one read off the socket brings the request and the first 64 KiB of its payload
    c.announce(block("app", 0), (long) chunk * chunks);
    int sent = 0;
    for (; sent < 4; sent++) {
      c.send(chunk, false);
    }
    assertFalse(c.reading(), "the connection is not read while the put's memory is being made");
    assertEquals(4L * chunk, c.puts.queuedBytes());

    memoryMade.complete(null);
    Await.until(() -> {
      c.channel.runPendingTasks();
      return c.reading();
    }, WAIT, "reading again");
    assertEquals(0, c.puts.queuedBytes(), "what was queued is in the put's memory");
    for (; sent < chunks; sent++) {
      c.send(chunk, sent == chunks - 1);
    }
    assertInstanceOf(Ack.class, c.answer().message());
    assertTrue(storage.store().contains(block("app", 0)));
  }

  @Test
  void aStalledPut_isAborted_itsMemoryGivenBack_theConnectionAnsweredTimeoutAndClosed() {
    inFlight = new InFlightPuts(1 << 20, 1 << 20, Duration.ofMillis(200), Clock.SYSTEM);
    Connection c = new Connection();
    c.announce(block("app", 0), 200_000);
    c.send(1000, false);
    assertTrue(pool.usedBytes() >= 200_000);
    assertEquals(200_000, inFlight.heldBy("app"));

    OutboundFrame timeout = c.answer();

    assertEquals(Status.TIMEOUT, statusOf(timeout));
    assertTrue(((ErrorAnswer) timeout.message()).message().contains("scache.worker.put.stall.timeout"));
    c.channel.runPendingTasks();
    assertFalse(c.channel.isOpen());
    assertEquals(0, pool.usedBytes(), "the reserve is back");
    assertEquals(0, inFlight.heldBy("app"));
    assertEquals(1, counters.stalledPuts.sum());
    Connection other = new Connection();
    other.put(block("other", 0), 200_000);
    assertInstanceOf(Ack.class, other.answer().message());
  }

  @Test
  void aPutIsNotStalled_whileTheWorkerDoesNotReadItsConnection() throws Exception {
    inFlight = new InFlightPuts(1 << 20, 1 << 20, Duration.ofMillis(100), Clock.SYSTEM);
    memoryMade = new CompletableFuture<>();
    Connection c = new Connection();
    c.announce(block("app", 0), 200);
    c.send(100, false);

    long until = System.nanoTime() + Duration.ofMillis(400).toNanos();
    while (System.nanoTime() < until) {
      c.channel.runScheduledPendingTasks();
      Thread.sleep(10);
    }
    assertTrue(c.channel.outboundMessages().isEmpty(), "no timeout while the put waits for memory");
    assertTrue(c.channel.isOpen());

    memoryMade.complete(null);
    c.send(100, true);
    assertInstanceOf(Ack.class, c.answer().message());
  }
}
