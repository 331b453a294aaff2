package org.scache.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.scache.client.ScacheClient;
import org.scache.common.BlockId;
import org.scache.common.protocol.Frames;
import org.scache.common.protocol.MessageType;
import org.scache.common.protocol.Status;

/**
 * Garbage, truncated frames, oversize lengths, unknown types and wrong versions sent to the master
 * and a worker over raw sockets: each gets its error status, and both daemons keep serving.
 */
@Timeout(60)
class BadInputIT {
  private static InProcessCluster cluster;
  private static ScacheClient client;
  private static final BlockId BLOCK = new BlockId("app-bad-input", 0, 0, 0, 0);

  @BeforeAll
  static void start() throws Exception {
    cluster = InProcessCluster.start(1, 16L << 20);
    client = cluster.client(0, "app-bad-input", "secret");
    client.registerApplication();
    client.putBlock(BLOCK, new byte[] {42});
  }

  @AfterAll
  static void stop() {
    client.close();
    cluster.close();
  }

  private static int[] ports() {
    return new int[] {cluster.master().port(), cluster.worker(0).info().port()};
  }

  @Test
  void unknownTypeAndWrongVersion_getTheirStatus_andTheConnectionGoesOn() throws IOException {
    for (int port : ports()) {
      try (Socket s = socket(port)) {
        DataOutputStream out = new DataOutputStream(s.getOutputStream());
        DataInputStream in = new DataInputStream(s.getInputStream());
        header(out, Frames.VERSION, 77, 1, 3, 0);
        out.write(new byte[] {1, 2, 3});
        assertEquals(Status.UNKNOWN_MESSAGE_TYPE, readError(in, 1));
        header(out, 9, MessageType.LIST_WORKERS.id(), 2, 0, 0);
        assertEquals(Status.UNSUPPORTED_VERSION, readError(in, 2));
        header(out, Frames.VERSION, MessageType.GET_BLOCK.id(), 3, 2, 0);
        out.write(new byte[] {0, 50});
        assertEquals(Status.MALFORMED_MESSAGE, readError(in, 3));
        header(out, Frames.VERSION, MessageType.GET_WORKER_STATS.id(), 4, 0, 5);
        out.write(new byte[5]);
        assertEquals(Status.MALFORMED_MESSAGE, readError(in, 4), "a payload on a type that carries none");
        // and a good request on the same connection is still answered
        header(out, Frames.VERSION, port == cluster.master().port() ? MessageType.LIST_WORKERS.id()
            : MessageType.GET_WORKER_STATS.id(), 5, 0, 0);
        int type = readAnswerType(in, 5);
        assertTrue(type == MessageType.WORKERS.id() || type == MessageType.WORKER_STATS.id(), "type " + type);
      }
    }
    assertDaemonsServe();
  }

  @Test
  void badMagicAndOversizeLengths_areAnsweredThenTheConnectionIsClosed() throws IOException {
    for (int port : ports()) {
      try (Socket s = socket(port)) {
        s.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes());
        DataInputStream in = new DataInputStream(s.getInputStream());
        assertEquals(Status.BAD_FRAME, readError(in, 0));
        assertEquals(-1, in.read(), "connection closed after a frame that cannot be followed");
      }
      try (Socket s = socket(port)) {
        DataOutputStream out = new DataOutputStream(s.getOutputStream());
        header(out, Frames.VERSION, MessageType.PUT_BLOCK.id(), 8, 100, Long.MAX_VALUE);
        DataInputStream in = new DataInputStream(s.getInputStream());
        assertEquals(Status.FRAME_TOO_LARGE, readError(in, 8));
        assertEquals(-1, in.read());
      }
      try (Socket s = socket(port)) {
        DataOutputStream out = new DataOutputStream(s.getOutputStream());
        header(out, Frames.VERSION, MessageType.LIST_WORKERS.id(), 9, -1, 0);
        DataInputStream in = new DataInputStream(s.getInputStream());
        assertEquals(Status.FRAME_TOO_LARGE, readError(in, 9));
      }
    }
    assertDaemonsServe();
  }

  @Test
  void randomGarbageAndTruncatedFrames_neverStopTheDaemons() throws IOException {
    SplittableRandom rnd = new SplittableRandom(3);
    for (int i = 0; i < 200; i++) {
      for (int port : ports()) {
        try (Socket s = socket(port)) {
          DataOutputStream out = new DataOutputStream(s.getOutputStream());
          if (i % 2 == 0) {
            header(out, Frames.VERSION, MessageType.PUT_BLOCK.id(), i, 40, 1 << 20);
            byte[] partial = new byte[rnd.nextInt(1, 5000)];
            rnd.nextBytes(partial);
            out.write(partial);
          } else {
            byte[] junk = new byte[rnd.nextInt(1, 300)];
            rnd.nextBytes(junk);
            out.write(junk);
          }
          out.flush();
        }
      }
    }
    assertDaemonsServe();
    assertEquals(16L << 20, cluster.worker(0).stats().get("memory.reserved.bytes"));
    assertTrue(cluster.worker(0).stats().get("memory.used.bytes") <= 1024,
        "no memory is held by abandoned puts: " + cluster.worker(0).stats());
  }

  @Test
  void aFloodOfBadFrames_writesAFewLogLines_notOnePerFrame() throws IOException {
    java.io.PrintStream err = System.err;
    java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
    System.setErr(new java.io.PrintStream(captured, true));
    try {
      for (int port : ports()) {
        try (Socket s = socket(port)) {
          DataOutputStream out = new DataOutputStream(new java.io.BufferedOutputStream(s.getOutputStream()));
          DataInputStream in = new DataInputStream(new java.io.BufferedInputStream(s.getInputStream()));
          for (int i = 1; i <= 5000; i++) {
            header(out, Frames.VERSION, 77, i, 0, 0);
          }
          out.flush();
          for (int i = 1; i <= 5000; i++) {
            assertEquals(Status.UNKNOWN_MESSAGE_TYPE, readError(in, i));
          }
        }
      }
    } finally {
      System.setErr(err);
    }
    long lines = captured.toString().lines().filter(l -> l.contains("bad input")).count();
    assertTrue(lines <= 25, lines + " log lines for 10,000 bad frames");
    assertDaemonsServe();
  }

  /** A socket to {@code port} past the daemon's greeting. */
  private static Socket socket(int port) throws IOException {
    Socket s = new Socket("127.0.0.1", port);
    s.setSoTimeout(10_000);
    assertEquals(MessageType.SERVER_HELLO.id(), readAnswerType(new DataInputStream(s.getInputStream()), 0));
    return s;
  }

  private static void assertDaemonsServe() {
    assertEquals(1, client.workers().size());
    assertArrayEquals(new byte[] {42}, client.getBlock(BLOCK));
  }

  private static void header(DataOutputStream out, int version, int type, long requestId, int metaLength,
      long payloadLength) throws IOException {
    out.writeInt(Frames.MAGIC);
    out.writeByte(version);
    out.writeByte(type);
    out.writeShort(0);
    out.writeLong(requestId);
    out.writeInt(metaLength);
    out.writeLong(payloadLength);
    out.flush();
  }


  /** Reads one answer frame and returns its type id, checking the request id. */
  private static int readAnswerType(DataInputStream in, long requestId) throws IOException {
    assertEquals(Frames.MAGIC, in.readInt());
    in.readUnsignedByte();
    int type = in.readUnsignedByte();
    in.readUnsignedShort();
    assertEquals(requestId, in.readLong());
    int meta = in.readInt();
    long payload = in.readLong();
    in.readFully(new byte[meta]);
    in.readFully(new byte[(int) payload]);
    return type;
  }


  private static Status readError(DataInputStream in, long requestId) throws IOException {
    assertEquals(Frames.MAGIC, in.readInt());
    in.readUnsignedByte();
    assertEquals(MessageType.ERROR.id(), in.readUnsignedByte());
    in.readUnsignedShort();
    assertEquals(requestId, in.readLong());
    int meta = in.readInt();
    assertEquals(0, in.readLong());
    int code = in.readUnsignedShort();
    in.readFully(new byte[meta - 2]);
    return Status.fromCode(code).orElseThrow();
  }
}
