package org.scache.common.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scache.common.BlockId;
import org.scache.common.auth.Credentials;
import org.scache.common.auth.RequestAuthorizer;
import org.scache.common.protocol.BlockData;
import org.scache.common.protocol.ErrorAnswer;
import org.scache.common.protocol.GetBlock;
import org.scache.common.protocol.ListWorkers;
import org.scache.common.protocol.Message;
import org.scache.common.protocol.ServerHello;
import org.scache.common.protocol.Status;
import org.scache.common.testing.Await;
import org.scache.common.testing.EchoishHandler;
import org.scache.common.testing.NettyLeakExtension;
import org.scache.common.testing.RawPeer;
import org.scache.common.testing.SampleMessages;

/**
 * Connections that never authenticate cannot lock a node's tasks out of a daemon: against a real
 * server over real sockets, they are closed to make room for newcomers, at most a few of them are kept
 * per address, and they are closed after a short idle time, while authenticated connections stay.
 */
@ExtendWith(NettyLeakExtension.class)
@Timeout(60)
class UnauthenticatedConnectionsTest {
  private static final String NODE = "127.0.0.2";
  private final List<RawPeer> peers = new ArrayList<>();
  private ScacheServer server;

  @AfterEach
  void stop() throws IOException {
    for (RawPeer p : peers) {
      p.close();
    }
    if (server != null) {
      server.close();
    }
  }

  private void start(int perAddress, int unauthenticatedPerAddress, Duration unauthenticatedIdle)
      throws InterruptedException {
    TransportSettings settings = new TransportSettings(1 << 20, 64L << 20, Duration.ofSeconds(2), 2, 1000,
        perAddress, Duration.ofMinutes(15), false).withUnauthenticated(unauthenticatedPerAddress,
        unauthenticatedIdle);
    RequestAuthorizer authorizer = new RequestAuthorizer(SampleMessages.CLUSTER_SECRET,
        new RequestAuthorizer.Secrets() {
          @Override
          public Optional<byte[]> known(String appId) {
            return Optional.ofNullable(Map.of(SampleMessages.APP, SampleMessages.APP_SECRET).get(appId));
          }

          @Override
          public CompletableFuture<byte[]> lookup(String appId) {
            return new CompletableFuture<>();
          }
        }, () -> { });
    server = ScacheServer.start("test-server", "127.0.0.1", 0, settings, authorizer,
        () -> new EchoishHandler(new CountDownLatch(1)), RequestObserver.NONE);
  }

  /** A connection from {@code source} that has read its greeting and says nothing. */
  private RawPeer silent(String source) throws IOException {
    RawPeer p = RawPeer.connect(source, server.port());
    peers.add(p);
    assertInstanceOf(ServerHello.class, p.greeting().orElseThrow());
    return p;
  }

  /** A connection from {@code source} on which the sample application's signed request was answered. */
  private RawPeer authenticated(String source) throws IOException {
    RawPeer p = silent(source);
    assertServed(p, 1);
    return p;
  }

  private static void assertServed(RawPeer p, long requestId) throws IOException {
    p.send(requestId, new GetBlock(SampleMessages.BLOCK_1), Optional.of(SampleMessages.appCredentials()));
    assertInstanceOf(BlockData.class, p.read().orElseThrow());
  }

  @Test
  void connectionsThatNeverAuthenticate_makeRoomForANewcomer_andAuthenticatedOnesStay() throws Exception {
    start(6, 3, Duration.ofMinutes(1));
    List<RawPeer> tasks = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      tasks.add(authenticated(NODE));
    }
    List<RawPeer> idle = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      idle.add(silent(NODE));
    }
    assertEquals(6, server.openConnections());
    assertEquals(3, server.unauthenticatedConnections());

    // the address is at both its limits; a newcomer still gets in, and the oldest idle connection goes
    RawPeer newcomer = silent(NODE);
    Message evicted = idle.get(0).read().orElseThrow();
    assertEquals(Status.LIMIT_EXCEEDED, assertInstanceOf(ErrorAnswer.class, evicted).status());
    assertTrue(idle.get(0).closedByServer(Duration.ofSeconds(5)));
    assertServed(newcomer, 1);
    for (int i = 0; i < 5; i++) {
      silent(NODE);
    }
    Await.until(() -> server.unauthenticatedConnections() <= 3, Duration.ofSeconds(5), "evictions");
    for (RawPeer task : tasks) {
      assertServed(task, 2);
    }
    assertServed(authenticated("127.0.0.3"), 1);
    assertTrue(server.refusedConnections() >= 6);
  }

  @Test
  void anAddressWhoseConnectionsAllAuthenticated_isRefusedPastItsLimit() throws Exception {
    start(2, 2, Duration.ofMinutes(1));
    RawPeer first = authenticated(NODE);
    authenticated(NODE);
    RawPeer third = RawPeer.connect(NODE, server.port());
    peers.add(third);
    ErrorAnswer refused = assertInstanceOf(ErrorAnswer.class, third.read().orElseThrow());
    assertEquals(Status.LIMIT_EXCEEDED, refused.status());
    assertTrue(refused.message().contains("scache.network.server.connections.per.address.max"), refused.message());
    assertTrue(third.closedByServer(Duration.ofSeconds(5)));
    assertServed(first, 2);
  }

  @Test
  void aConnectionWhoseVerdictWaits_isNotReadMeanwhile_andNotClosedAsIdleForIt() throws Exception {
    start(100, 100, Duration.ofMillis(300));
    RawPeer waiting = silent(NODE);
    // the secret of an application this server does not know is asked for, and never comes
    waiting.send(1, new GetBlock(new BlockId("other-app", 0, 0, 0, 0)),
        Optional.of(Credentials.application("other-app", "its secret".getBytes())));
    assertFalse(waiting.closedByServer(Duration.ofMillis(1500)), "the server stopped reading, the peer did not");
    assertEquals(1, server.unauthenticatedConnections());
  }

  @Test
  void aConnectionThatNeverAuthenticates_isClosedAfterTheShortIdleTimeout_anAuthenticatedOneIsNot()
      throws Exception {
    start(100, 100, Duration.ofMillis(500));
    RawPeer quiet = silent(NODE);
    RawPeer unsigned = silent(NODE);
    unsigned.send(1, new ListWorkers(), Optional.empty());
    RawPeer forged = silent(NODE);
    forged.send(1, new GetBlock(SampleMessages.BLOCK_1),
        Optional.of(Credentials.application(SampleMessages.APP, "a guess".getBytes())));
    assertEquals(Status.AUTH_FAILED, assertInstanceOf(ErrorAnswer.class, forged.read().orElseThrow()).status());
    RawPeer task = authenticated(NODE);

    assertTrue(quiet.closedByServer(Duration.ofSeconds(5)), "a connection that only took the greeting");
    assertTrue(unsigned.closedByServer(Duration.ofSeconds(5)), "one that sent only unsigned requests");
    assertTrue(forged.closedByServer(Duration.ofSeconds(5)), "one whose proof failed");
    assertFalse(task.closedByServer(Duration.ofMillis(1500)), "the authenticated connection stays");
    assertServed(task, 2);
    assertEquals(0, server.unauthenticatedConnections());
  }
}
