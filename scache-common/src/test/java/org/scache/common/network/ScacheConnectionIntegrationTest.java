package org.scache.common.network;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.scache.common.testing.EchoishHandler.blockBytes;
import static org.scache.common.testing.EchoishHandler.getBlock;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scache.common.ScacheException;
import org.scache.common.auth.Credentials;
import org.scache.common.protocol.BlockData;
import org.scache.common.protocol.GetWorkerStats;
import org.scache.common.protocol.ListWorkers;
import org.scache.common.protocol.RemoveApplication;
import org.scache.common.protocol.Status;
import org.scache.common.protocol.WorkerStats;
import org.scache.common.testing.Await;
import org.scache.common.testing.EchoishHandler;
import org.scache.common.testing.NettyLeakExtension;
import org.scache.common.testing.SampleMessages;

/** A client connection and a server on loopback: answers, payloads, timeouts and broken connections. */
@ExtendWith(NettyLeakExtension.class)
@Timeout(60)
class ScacheConnectionIntegrationTest {
  private static final TransportSettings SETTINGS =
      new TransportSettings(1 << 20, 64L << 20, Duration.ofSeconds(2), 2);
  private static final Duration LONG = Duration.ofSeconds(20);

  private final CountDownLatch unanswered = new CountDownLatch(1);
  private ScacheServer server;
  private boolean serverClosed;
  private ConnectionPool pool;

  @BeforeEach
  void start() throws InterruptedException {
    server = ScacheServer.start("test-server", "127.0.0.1", 0, SETTINGS, () -> new EchoishHandler(unanswered));
    pool = new ConnectionPool(SETTINGS, "test-client");
  }

  @AfterEach
  void stop() {
    pool.close();
    if (!serverClosed) {
      server.close();
    }
  }

  private void closeServer() {
    serverClosed = true;
    server.close();
  }

  private ScacheConnection connect() throws Exception {
    return pool.get("127.0.0.1", server.port()).get(5, SECONDS);
  }

  private static Status statusOf(Future<?> f) {
    ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(10, SECONDS));
    return ScacheException.from(e).status();
  }

  @Test
  void call_getWorkerStats_completesWithWorkerStats() throws Exception {
    ScacheConnection conn = connect();
    Reply unsigned = conn.call(new GetWorkerStats(), Optional.empty(), LONG).get(10, SECONDS);
    assertEquals(new WorkerStats(Map.of("signed", 0L)), unsigned.as(WorkerStats.class));
    assertEquals(0, unsigned.payload().readableBytes());
    unsigned.payload().release();

    Optional<Credentials> creds = Optional.of(SampleMessages.appCredentials());
    Reply signed = conn.call(new GetWorkerStats(), creds, LONG).get(10, SECONDS);
    assertEquals(Map.of("signed", 1L), signed.as(WorkerStats.class).counters());
    signed.payload().release();
  }

  @Test
  void call_getBlock_returnsBlockDataWithPayload() throws Exception {
    ScacheConnection conn = connect();
    for (int size : new int[] {0, 1, 1000, 100_000}) {
      Reply r = conn.call(getBlock(size), Optional.empty(), LONG).get(10, SECONDS);
      try {
        assertEquals(new BlockData(getBlock(size).blockId()), r.message());
        assertArrayEquals(blockBytes(size), ByteBufUtil.getBytes(r.payload()));
      } finally {
        r.payload().release();
      }
    }
  }

  @Test
  void call_getBlockOf8MiB_payloadArrivesIntact() throws Exception {
    int size = 8 << 20;
    Reply r = connect().call(getBlock(size), Optional.empty(), LONG).get(20, SECONDS);
    ByteBuf payload = r.payload();
    try {
      assertEquals(size, payload.readableBytes());
      assertArrayEquals(blockBytes(size), ByteBufUtil.getBytes(payload));
    } finally {
      payload.release();
    }
    assertEquals(0, payload.refCnt());
  }

  @Test
  void receiveBuffer_boundedPool_socketKeepsTheBoundAndAnswersArriveIntact() throws Exception {
    int bound = 32 << 10;
    try (ConnectionPool bounded = new ConnectionPool(SETTINGS, "test-bounded-client", bound)) {
      ScacheConnection c = bounded.get("127.0.0.1", server.port()).get(10, SECONDS);
      // Linux keeps twice what is asked, for its bookkeeping; autotuning starts at 128 KiB and grows
      assertTrue(c.receiveBufferBytes() <= 2 * bound, "receive buffer " + c.receiveBufferBytes());
      int size = 8 << 20;
      ByteBuf payload = c.call(getBlock(size), Optional.empty(), LONG).get(20, SECONDS).payload();
      try {
        assertArrayEquals(blockBytes(size), ByteBufUtil.getBytes(payload));
      } finally {
        payload.release();
      }
    }
  }

  @Test
  void receiveBuffer_suppliedPerConnection_eachNewConnectionTakesTheBufferGivenWhenItOpens() throws Exception {
    int bound = 8 << 10;
    java.util.concurrent.atomic.AtomicInteger given = new java.util.concurrent.atomic.AtomicInteger();
    try (ConnectionPool pool = new ConnectionPool(SETTINGS, "test-supplied-client", given::get)) {
      ScacheConnection first = pool.get("127.0.0.1", server.port()).get(10, SECONDS);
      // 0: the kernel's autotuning, which starts well above the bound (tcp_rmem's default, 64 KiB or more)
      assertTrue(first.receiveBufferBytes() > 2 * bound, "autotuned receive buffer " + first.receiveBufferBytes());
      pool.disconnect("127.0.0.1", server.port());
      given.set(bound);
      ScacheConnection second = pool.get("127.0.0.1", server.port()).get(10, SECONDS);
      assertTrue(second.receiveBufferBytes() <= 2 * bound, "receive buffer " + second.receiveBufferBytes());
    }
  }

  @Test
  void receiveBuffer_negative_isRefused() {
    assertThrows(IllegalArgumentException.class, () -> new ConnectionPool(SETTINGS, "test-negative", -1));
  }

  @Test
  void call_manyConcurrentCalls_eachGetsItsOwnAnswer() throws Exception {
    ScacheConnection conn = connect();
    List<CompletableFuture<Reply>> calls = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      calls.add(i % 5 == 0
          ? conn.call(new GetWorkerStats(), Optional.empty(), LONG)
          : conn.call(getBlock(i * 7919), Optional.empty(), LONG));
    }
    for (int i = 0; i < calls.size(); i++) {
      Reply r = calls.get(i).get(20, SECONDS);
      try {
        if (i % 5 == 0) {
          r.as(WorkerStats.class);
        } else {
          assertEquals(i * 7919, r.as(BlockData.class).blockId().reduceId());
          assertArrayEquals(blockBytes(i * 7919), ByteBufUtil.getBytes(r.payload()), "call " + i);
        }
      } finally {
        r.payload().release();
      }
    }
  }

  @Test
  void call_serverAnswersWithError_failsWithThatStatus() throws Exception {
    CompletableFuture<Reply> f = connect().call(new RemoveApplication("app-1"), Optional.empty(), LONG);
    assertEquals(Status.INVALID_ARGUMENT, statusOf(f));
  }

  @Test
  void call_neverAnswered_failsWithTimeoutWithinItsTimeout() throws Exception {
    ScacheConnection conn = connect();
    long start = System.nanoTime();
    CompletableFuture<Reply> f = conn.call(new ListWorkers(), Optional.empty(), Duration.ofMillis(300));
    assertEquals(Status.TIMEOUT, statusOf(f));
    long elapsedMillis = (System.nanoTime() - start) / 1_000_000;
    assertTrue(elapsedMillis >= 250 && elapsedMillis < 3000, "timed out after " + elapsedMillis + " ms");
    assertTrue(Status.TIMEOUT.isTransient());

    Reply r = conn.call(new GetWorkerStats(), Optional.empty(), LONG).get(10, SECONDS);
    r.as(WorkerStats.class);
    r.payload().release();
  }

  @Test
  void serverClose_failsInFlightCallWithConnectionFailed() throws Exception {
    ScacheConnection conn = connect();
    CompletableFuture<Reply> f = conn.call(new ListWorkers(), Optional.empty(), LONG);
    assertTrue(unanswered.await(10, SECONDS), "the server received the call");
    long start = System.nanoTime();
    closeServer();
    assertEquals(Status.CONNECTION_FAILED, statusOf(f));
    assertTrue(System.nanoTime() - start < LONG.toNanos() / 2, "failed by the close, not by the timeout");

    Await.until(() -> !conn.isActive(), Duration.ofSeconds(1), "the closed connection is inactive");
    assertEquals(Status.CONNECTION_FAILED,
        statusOf(conn.call(new GetWorkerStats(), Optional.empty(), LONG)));
  }

  @Test
  void serverClose_calledTwice_isHarmless() {
    closeServer();
    assertDoesNotThrow(server::close);
  }

  @Test
  void connectionPool_getToClosedPort_failsWithConnectionFailed() throws IOException {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    assertEquals(Status.CONNECTION_FAILED, statusOf(pool.get("127.0.0.1", port)));
    assertEquals(Status.CONNECTION_FAILED, statusOf(pool.get("127.0.0.1:" + port)), "tried again, fails again");
  }

  @Test
  void connectionPool_get_reusesLiveConnectionAndReplacesClosedOne() throws Exception {
    ScacheConnection first = connect();
    assertSame(first, connect());
    assertEquals("127.0.0.1:" + server.port(), first.peer());
    first.close();
    Await.until(() -> !first.isActive(), Duration.ofSeconds(1), "the closed connection is inactive");
    ScacheConnection second = connect();
    assertNotSame(first, second);
    Reply r = second.call(new GetWorkerStats(), Optional.empty(), LONG).get(10, SECONDS);
    r.payload().release();
  }

  @Test
  void reply_asWrongType_failsWithMalformedMessageAndReleasesPayload() throws Exception {
    Reply r = connect().call(getBlock(64), Optional.empty(), LONG).get(10, SECONDS);
    ScacheException e = assertThrows(ScacheException.class, () -> r.as(WorkerStats.class));
    assertEquals(Status.MALFORMED_MESSAGE, e.status());
    assertEquals(0, r.payload().refCnt());
  }
}
