package org.scache.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
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

/**
 * Idle connections cannot use up a daemon's file descriptors nor keep anyone out: past the
 * per-address or the daemon's limit the oldest connection that never authenticated is closed to make
 * room for a newcomer, authenticated clients go on being served, and idle connections are closed.
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

  /** A frame from the worker: its type, its status (OK unless an ERROR), and the stream. */
  private record Opened(int type, Status status, DataInputStream in) {}

  /** A connection from {@code source} to the worker, and the first frame it reads. */
  private Opened connectFrom(String source) throws IOException {
    Socket s = new Socket();
    s.bind(new InetSocketAddress(source, 0));
    s.connect(new InetSocketAddress("127.0.0.1", cluster.worker(0).info().port()));
    s.setSoTimeout(10_000);
    open.add(s);
    return next(new DataInputStream(s.getInputStream()));
  }

  /** The next frame on {@code in}. */
  private static Opened next(DataInputStream in) throws IOException {
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
  void oneAddressPastItsLimit_closesItsOldestIdleConnectionForANewcomer_whileOtherAddressesAreServed()
      throws Exception {
    start("15m");
    List<Opened> idle = new ArrayList<>();
    for (int i = 0; i < PER_ADDRESS; i++) {
      Opened o = connectFrom("127.0.0.2");
      assertEquals(MessageType.SERVER_HELLO.id(), o.type(), "connection " + i);
      idle.add(o);
    }
    // none of them ever authenticated: the newcomer gets in, the oldest makes room
    assertEquals(MessageType.SERVER_HELLO.id(), connectFrom("127.0.0.2").type());
    assertEquals(Status.LIMIT_EXCEEDED, next(idle.get(0).in()).status());
    assertEquals(-1, idle.get(0).in().read(), "the oldest idle connection is closed");
    try (ScacheClient owner = cluster.client(0, "app-limits", "secret")) {
      owner.registerApplication();
      roundTrip(owner, new BlockId("app-limits", 0, 0, 0, 0));
    }
    assertTrue(cluster.stat(0, "connections.refused") >= 1);
  }

  @Test
  void theDaemonPastItsLimit_closesItsOldestIdleConnectionForANewcomer_andServesTheOwnerOnItsOwn()
      throws Exception {
    start("15m");
    try (ScacheClient owner = cluster.client(0, "app-limits", "secret")) {
      owner.registerApplication();
      roundTrip(owner, new BlockId("app-limits", 0, 0, 0, 0));
      int have = (int) cluster.stat(0, "connections.open");
      List<Opened> idle = new ArrayList<>();
      for (int i = have; i < MAX; i++) {
        Opened o = connectFrom(i % 2 == 0 ? "127.0.0.3" : "127.0.0.4");
        assertEquals(MessageType.SERVER_HELLO.id(), o.type());
        idle.add(o);
      }
      assertEquals(MessageType.SERVER_HELLO.id(), connectFrom("127.0.0.5").type());
      assertEquals(Status.LIMIT_EXCEEDED, next(idle.get(0).in()).status());
      // the owner's authenticated connection goes on being served, and is never the one closed
      roundTrip(owner, new BlockId("app-limits", 0, 1, 0, 0));
      assertTrue(cluster.stat(0, "connections.open") <= MAX);
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
