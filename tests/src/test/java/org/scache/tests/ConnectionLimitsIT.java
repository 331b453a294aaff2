package org.scache.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.scache.client.ScacheClient;
import org.scache.common.BlockId;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import org.scache.common.protocol.Frames;
import org.scache.common.protocol.MessageType;
import org.scache.common.protocol.Status;
import org.scache.common.testing.Await;

/**
 * Idle connections cannot use up a daemon's file descriptors: past the per-address limit one
 * address is refused while others are served, past the daemon's limit everyone waits for a
 * connection to close, and idle connections are closed.
 */
@Timeout(120)
class ConnectionLimitsIT {
  private static final int PER_ADDRESS = 40;
  private static final int MAX = 60;
  private final List<Socket> open = new ArrayList<>();
  private InProcessCluster cluster;

  @AfterEach
  void stop() throws IOException {
    for (Socket s : open) {
      s.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  private void start(String idle) throws Exception {
    cluster = InProcessCluster.start(1, 16L << 20, ScacheConf.empty()
        .with(ScacheOptions.NETWORK_SERVER_CONNECTIONS_MAX, MAX)
        .with(ScacheOptions.NETWORK_SERVER_CONNECTIONS_PER_ADDRESS_MAX, PER_ADDRESS)
        .with(ScacheOptions.NETWORK_SERVER_IDLE_TIMEOUT.key(), idle));
  }

  /** A connection's first frame from the worker: its type, its status (OK unless an ERROR), and the stream. */
  private record Opened(int type, Status status, DataInputStream in) {}

  /** A connection from {@code source} to the worker, and the first frame it reads. */
  private Opened connectFrom(String source) throws IOException {
    Socket s = new Socket();
    s.bind(new InetSocketAddress(source, 0));
    s.connect(new InetSocketAddress("127.0.0.1", cluster.worker(0).info().port()));
    s.setSoTimeout(10_000);
    open.add(s);
    DataInputStream in = new DataInputStream(s.getInputStream());
    assertEquals(Frames.MAGIC, in.readInt());
    in.readUnsignedByte();
    int type = in.readUnsignedByte();
    in.readUnsignedShort();
    in.readLong();
    int meta = in.readInt();
    in.readLong();
    byte[] m = new byte[meta];
    in.readFully(m);
    Status status = type == MessageType.ERROR.id()
        ? Status.fromCode(((m[0] & 0xff) << 8) | (m[1] & 0xff)).orElseThrow() : Status.OK;
    return new Opened(type, status, in);
  }

  private static void roundTrip(ScacheClient client, BlockId block) {
    byte[] data = "still served".getBytes(StandardCharsets.UTF_8);
    client.putBlock(block, data);
    assertArrayEquals(data, client.getBlock(block));
  }

  @Test
  void oneAddressPastItsLimit_isRefused_whileOtherAddressesAreServed() throws Exception {
    start("15m");
    for (int i = 0; i < PER_ADDRESS; i++) {
      assertEquals(MessageType.SERVER_HELLO.id(), connectFrom("127.0.0.2").type(), "connection " + i);
    }
    Opened refused = connectFrom("127.0.0.2");
    assertEquals(Status.LIMIT_EXCEEDED, refused.status());
    assertEquals(-1, refused.in().read(), "the refused connection is closed");
    try (ScacheClient owner = cluster.client(0, "app-limits", "secret")) {
      owner.registerApplication();
      roundTrip(owner, new BlockId("app-limits", 0, 0, 0, 0));
    }
    assertTrue(cluster.stat(0, "connections.refused") >= 1);
  }

  @Test
  void theDaemonPastItsLimit_refusesEveryone_untilConnectionsClose() throws Exception {
    start("15m");
    try (ScacheClient owner = cluster.client(0, "app-limits", "secret")) {
      owner.registerApplication();
      roundTrip(owner, new BlockId("app-limits", 0, 0, 0, 0));
      int have = (int) cluster.stat(0, "connections.open");
      for (int i = have; i < MAX; i++) {
        assertEquals(MessageType.SERVER_HELLO.id(), connectFrom(i % 2 == 0 ? "127.0.0.3" : "127.0.0.4").type());
      }
      assertEquals(Status.LIMIT_EXCEEDED, connectFrom("127.0.0.5").status());
      // the owner's open connection goes on being served
      roundTrip(owner, new BlockId("app-limits", 0, 1, 0, 0));
      for (Socket s : open) {
        s.close();
      }
      Await.until(() -> cluster.stat(0, "connections.open") < MAX - 10, Duration.ofSeconds(10),
          () -> "connections not released: " + cluster.worker(0).stats());
      assertEquals(MessageType.SERVER_HELLO.id(), connectFrom("127.0.0.5").type());
    }
  }

  @Test
  void idleConnections_areClosed() throws Exception {
    start("1s");
    DataInputStream in = connectFrom("127.0.0.6").in();
    assertEquals(-1, in.read(), "closed after a second of silence");
    assertTrue(cluster.stat(0, "connections.idle.closed") >= 1);
    // a client whose pooled connection was closed opens a new one
    try (ScacheClient owner = cluster.client(0, "app-idle", "secret")) {
      owner.registerApplication();
      roundTrip(owner, new BlockId("app-idle", 0, 0, 0, 0));
      Thread.sleep(2500);
      roundTrip(owner, new BlockId("app-idle", 0, 1, 0, 0));
    }
  }
}
