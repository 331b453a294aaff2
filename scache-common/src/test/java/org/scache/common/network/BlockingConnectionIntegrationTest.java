package org.scache.common.network;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.scache.common.testing.EchoishHandler.blockBytes;
import static org.scache.common.testing.EchoishHandler.getBlock;

import io.netty.buffer.ByteBufUtil;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.LongFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scache.common.ScacheException;
import org.scache.common.auth.Credentials;
import org.scache.common.protocol.BlockData;
import org.scache.common.protocol.Frames;
import org.scache.common.protocol.GetWorkerStats;
import org.scache.common.protocol.ListWorkers;
import org.scache.common.protocol.MessageType;
import org.scache.common.protocol.RemoveApplication;
import org.scache.common.protocol.Status;
import org.scache.common.protocol.WorkerStats;
import org.scache.common.testing.EchoishHandler;
import org.scache.common.testing.NettyLeakExtension;
import org.scache.common.testing.RawFrame;
import org.scache.common.testing.SampleMessages;

/**
 * A blocking client connection against a real server on loopback, and against a raw socket that
 * answers with frames the server would never send: every call ends with its answer or a status, and
 * a connection whose stream cannot be followed is closed, never read out of step.
 */
@ExtendWith(NettyLeakExtension.class)
@Timeout(60)
class BlockingConnectionIntegrationTest {
  private static final TransportSettings SETTINGS =
      new TransportSettings(1 << 20, 64L << 20, Duration.ofSeconds(2), 2);
  private static final Duration LONG = Duration.ofSeconds(20);

  private final CountDownLatch unanswered = new CountDownLatch(1);
  private ScacheServer server;
  private BlockingConnections connections;

  @BeforeEach
  void start() throws InterruptedException {
    server = ScacheServer.start("test-server", "127.0.0.1", 0, SETTINGS, () -> new EchoishHandler(unanswered));
    connections = new BlockingConnections(SETTINGS);
  }

  @AfterEach
  void stop() {
    connections.close();
    server.close();
  }

  private ClientConnection connect() throws Exception {
    return connections.get("127.0.0.1:" + server.port()).get(5, SECONDS);
  }

  private static Status statusOf(Future<?> f) {
    ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(10, SECONDS));
    return ScacheException.from(e).status();
  }

  @Test
  void call_returnsCompletedFutureWithTheAnswer_signedOrNot() throws Exception {
    ClientConnection conn = connect();
    CompletableFuture<Reply> unsigned = conn.call(new GetWorkerStats(), Optional.empty(), LONG);
    assertTrue(unsigned.isDone(), "answered in the calling thread");
    assertEquals(Map.of("signed", 0L), unsigned.get().as(WorkerStats.class).counters());

    Optional<Credentials> creds = Optional.of(SampleMessages.appCredentials());
    Reply signed = conn.call(new GetWorkerStats(), creds, LONG).get();
    assertEquals(Map.of("signed", 1L), signed.as(WorkerStats.class).counters());
    assertEquals(0, signed.payload().readableBytes());
  }

  @Test
  void call_getBlock_payloadArrivesIntact_upTo8MiB() throws Exception {
    ClientConnection conn = connect();
    for (int size : new int[] {0, 1, 1000, 100_000, 8 << 20}) {
      Reply r = conn.call(getBlock(size), Optional.empty(), LONG).get();
      assertEquals(new BlockData(getBlock(size).blockId()), r.message());
      assertArrayEquals(blockBytes(size), ByteBufUtil.getBytes(r.payload()), "block of " + size + " bytes");
      r.payload().release();
    }
  }

  @Test
  void call_fromManyThreads_eachGetsItsOwnAnswer() throws Exception {
    ClientConnection conn = connect();
    ExecutorService threads = Executors.newFixedThreadPool(4);
    try {
      List<Future<Integer>> sizes = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        int size = i * 7919;
        sizes.add(threads.submit(() -> {
          Reply r = conn.call(getBlock(size), Optional.empty(), LONG).get();
          assertArrayEquals(blockBytes(size), ByteBufUtil.getBytes(r.payload()));
          return r.as(BlockData.class).blockId().reduceId();
        }));
      }
      for (int i = 0; i < sizes.size(); i++) {
        assertEquals(i * 7919, sizes.get(i).get(20, SECONDS));
      }
    } finally {
      threads.shutdownNow();
    }
  }

  @Test
  void call_serverAnswersWithError_failsWithThatStatus_andTheConnectionGoesOn() throws Exception {
    ClientConnection conn = connect();
    assertEquals(Status.INVALID_ARGUMENT, statusOf(conn.call(new RemoveApplication("app-1"),
        Optional.empty(), LONG)));
    assertTrue(conn.isActive());
    conn.call(new GetWorkerStats(), Optional.empty(), LONG).get().as(WorkerStats.class);
  }

  @Test
  void call_neverAnswered_failsWithTimeout_andThePoolOpensANewConnection() throws Exception {
    ClientConnection conn = connect();
    long start = System.nanoTime();
    assertEquals(Status.TIMEOUT, statusOf(conn.call(new ListWorkers(), Optional.empty(),
        Duration.ofMillis(300))));
    long elapsedMillis = (System.nanoTime() - start) / 1_000_000;
    assertTrue(elapsedMillis >= 250 && elapsedMillis < 3000, "timed out after " + elapsedMillis + " ms");
    assertFalse(conn.isActive(), "a late answer must never be read as the next call's");
    assertEquals(Status.CONNECTION_FAILED, statusOf(conn.call(new GetWorkerStats(), Optional.empty(), LONG)));

    ClientConnection next = connect();
    assertNotSame(conn, next);
    next.call(new GetWorkerStats(), Optional.empty(), LONG).get().as(WorkerStats.class);
  }

  @Test
  void get_reusesTheLiveConnection() throws Exception {
    ClientConnection first = connect();
    assertSame(first, connect());
    assertEquals("127.0.0.1:" + server.port(), first.peer());
  }

  @Test
  void get_closedPort_failsWithConnectionFailed() throws IOException {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    assertEquals(Status.CONNECTION_FAILED, statusOf(connections.get("127.0.0.1:" + port)));
    assertEquals(Status.CONNECTION_FAILED, statusOf(connections.get("127.0.0.1:" + port)), "tried again, fails again");
  }

  @Test
  void serverGone_failsTheCallWithConnectionFailed() throws Exception {
    ClientConnection conn = connect();
    server.close();
    assertEquals(Status.CONNECTION_FAILED, statusOf(conn.call(new GetWorkerStats(), Optional.empty(), LONG)));
    assertFalse(conn.isActive());
  }

  @Test
  void answerWithBadMagic_failsWithBadFrame_andClosesTheConnection() throws Exception {
    try (RawAnswers raw = new RawAnswers(id -> RawFrame.of(MessageType.WORKER_STATS).magic(0x12345678).requestId(id)
        .i32(0).bytes())) {
      ClientConnection conn = raw.connect(connections);
      assertEquals(Status.BAD_FRAME, statusOf(conn.call(new GetWorkerStats(), Optional.empty(), LONG)));
      assertFalse(conn.isActive());
    }
  }

  @Test
  void answerOverThePayloadLimit_failsWithFrameTooLarge_andClosesTheConnection() throws Exception {
    try (RawAnswers raw = new RawAnswers(id -> RawFrame.of(MessageType.BLOCK_DATA).requestId(id)
        .declaredPayloadLength(1L << 40).bytes())) {
      ClientConnection conn = raw.connect(connections);
      assertEquals(Status.FRAME_TOO_LARGE, statusOf(conn.call(getBlock(1), Optional.empty(), LONG)));
      assertFalse(conn.isActive());
    }
  }

  @Test
  void answersOfUnknownTypeOrToAnotherRequest_areSkipped_theStreamStaysInStep() throws Exception {
    // each call is answered by: a frame for another request, then a frame of an unknown type for it
    try (RawAnswers raw = new RawAnswers(id -> concat(
        RawFrame.of(MessageType.WORKER_STATS).requestId(id + 1000).i32(0).bytes(),
        RawFrame.ofTypeId(250).requestId(id).raw(new byte[] {1, 2, 3}).bytes()))) {
      ClientConnection conn = raw.connect(connections);
      assertEquals(Status.UNKNOWN_MESSAGE_TYPE, statusOf(conn.call(new GetWorkerStats(), Optional.empty(),
          LONG)));
      assertTrue(conn.isActive());
      assertEquals(Status.UNKNOWN_MESSAGE_TYPE, statusOf(conn.call(new GetWorkerStats(), Optional.empty(),
          LONG)), "the second answer is read in step");
    }
  }

  @Test
  void malformedAnswerMetadata_failsWithMalformedMessage_andTheConnectionGoesOn() throws Exception {
    // WORKER_STATS whose counter count claims more entries than the metadata holds
    try (RawAnswers raw = new RawAnswers(id -> RawFrame.of(MessageType.WORKER_STATS).requestId(id).i32(1000)
        .bytes())) {
      ClientConnection conn = raw.connect(connections);
      assertEquals(Status.MALFORMED_MESSAGE, statusOf(conn.call(new GetWorkerStats(), Optional.empty(),
          LONG)));
      assertTrue(conn.isActive());
    }
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = new byte[a.length + b.length];
    System.arraycopy(a, 0, out, 0, a.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  /** A raw socket server that reads each request frame and writes the bytes {@code answer} makes for its id. */
  private static final class RawAnswers implements AutoCloseable {
    private final ServerSocket socket;
    private final Thread thread;

    RawAnswers(LongFunction<byte[]> answer) throws IOException {
      socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
      thread = new Thread(() -> serve(answer), "raw-answers");
      thread.setDaemon(true);
      thread.start();
    }

    ClientConnection connect(ClientConnections connections) throws Exception {
      return connections.get("127.0.0.1:" + socket.getLocalPort()).get(5, SECONDS);
    }

    private void serve(LongFunction<byte[]> answer) {
      try (Socket s = socket.accept()) {
        DataInputStream in = new DataInputStream(s.getInputStream());
        OutputStream out = s.getOutputStream();
        out.write(org.scache.common.testing.FrameCodecHarness.encode(org.scache.common.protocol.OutboundFrame.of(0,
            new org.scache.common.protocol.ServerHello(org.scache.common.testing.FrameCodecHarness.NONCE))));
        out.flush();
        byte[] head = new byte[Frames.HEADER_LENGTH];
        while (true) {
          in.readFully(head);
          java.nio.ByteBuffer h = java.nio.ByteBuffer.wrap(head);
          long id = h.getLong(8);
          long rest = (h.getInt(16) & 0xFFFFFFFFL) + h.getLong(20);
          in.skipNBytes(rest);
          out.write(answer.apply(id));
          out.flush();
        }
      } catch (IOException e) {
        // the client went away
      }
    }

    @Override
    public void close() throws IOException {
      socket.close();
    }
  }
}
