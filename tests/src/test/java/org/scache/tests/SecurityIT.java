package org.scache.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.scache.client.ScacheClient;
import org.scache.common.BlockId;
import org.scache.common.ScacheException;
import org.scache.common.auth.Credentials;
import org.scache.common.network.ConnectionPool;
import org.scache.common.network.ScacheConnection;
import org.scache.common.network.TransportSettings;
import org.scache.common.protocol.FetchAppSecret;
import org.scache.common.protocol.FetchBlocks;
import org.scache.common.protocol.GetBlock;
import org.scache.common.protocol.PutBlock;
import org.scache.common.protocol.RegisterApplication;
import org.scache.common.protocol.RemoveApplication;
import org.scache.common.protocol.Status;

/** Requests without proof, with a wrong secret or with another application's secret are refused and change nothing. */
@Timeout(60)
class SecurityIT {
  private static final String APP = "app-owner";
  private static final String SECRET = "owner-secret";
  private static final BlockId BLOCK = new BlockId(APP, 0, 0, 0, 0);
  private static final byte[] DATA = "the owner's bytes".getBytes(StandardCharsets.UTF_8);
  private static InProcessCluster cluster;
  private static ScacheClient owner;

  @BeforeAll
  static void start() throws Exception {
    cluster = InProcessCluster.start(2, 16L << 20);
    owner = cluster.client(0, APP, SECRET);
    owner.registerApplication();
    owner.putBlock(BLOCK, DATA);
    owner.mapFinished(0, 0, 0);
    try (ScacheClient other = cluster.client(0, "app-other", "other-secret")) {
      other.registerApplication();
    }
  }

  @AfterAll
  static void stop() {
    owner.close();
    cluster.close();
  }

  @Test
  void wrongSecret_isRefusedForPutAndGet_onLocalAndRemoteWorker() {
    for (int w = 0; w < 2; w++) {
      try (ScacheClient impostor = cluster.client(w, APP, "guessed-secret")) {
        assertStatus(Status.AUTH_FAILED, () -> impostor.getBlock(BLOCK));
        assertStatus(Status.AUTH_FAILED, () -> impostor.putBlock(new BlockId(APP, 0, 0, 0, 0), new byte[] {6}));
        assertStatus(Status.AUTH_FAILED, () -> impostor.getReduceInput(0, 0));
        assertStatus(Status.AUTH_FAILED, () -> impostor.removeApplication());
        assertStatus(Status.AUTH_FAILED, () -> impostor.registerApplication());
      }
    }
    assertArrayEquals(DATA, owner.getBlock(BLOCK), "nothing the impostor sent changed the block");
  }

  @Test
  void anotherApplicationsSecret_cannotReadOrWriteThisApplication() throws Exception {
    // a client of app-other signs as app-other; it must not act for app-owner's blocks
    try (ConnectionPool pool = new ConnectionPool(TransportSettings.defaults(), "test")) {
      ScacheConnection c = pool.get("127.0.0.1", cluster.worker(1).info().port()).join();
      Credentials other = Credentials.application("app-other", "other-secret".getBytes(StandardCharsets.UTF_8));
      ScacheException e = ScacheException.from(assertThrows(Exception.class, () -> c.call(new GetBlock(BLOCK),
          Optional.of(other), Duration.ofSeconds(5)).join()));
      assertEquals(Status.AUTH_FAILED, e.status());
      e = ScacheException.from(assertThrows(Exception.class, () -> c.call(new RemoveApplication(APP),
          Optional.of(other), Duration.ofSeconds(5)).join()));
      assertEquals(Status.AUTH_FAILED, e.status());
    }
    assertArrayEquals(DATA, owner.getBlock(BLOCK));
  }

  @Test
  void noProof_isRefusedWithAuthRequired_andFetchNeedsTheClusterSecret() throws Exception {
    long putsBefore = cluster.worker(0).stats().get("put.blocks");
    try (ConnectionPool pool = new ConnectionPool(TransportSettings.defaults(), "test")) {
      ScacheConnection worker = pool.get("127.0.0.1", cluster.worker(0).info().port()).join();
      ScacheException e = ScacheException.from(assertThrows(Exception.class, () -> worker.call(
          new GetBlock(BLOCK), Optional.empty(), Duration.ofSeconds(5)).join()));
      assertEquals(Status.AUTH_REQUIRED, e.status());
      e = ScacheException.from(assertThrows(Exception.class, () -> worker.call(new PutBlock(
          new BlockId(APP, 0, 1, 0, 0)), Optional.empty(), io.netty.buffer.Unpooled.wrappedBuffer(new byte[100]),
          Duration.ofSeconds(5)).join()));
      assertEquals(Status.AUTH_REQUIRED, e.status());
      // worker-to-worker fetches need the cluster secret, not the application's
      Credentials ownerCreds = Credentials.application(APP, SECRET.getBytes(StandardCharsets.UTF_8));
      e = ScacheException.from(assertThrows(Exception.class, () -> worker.call(new FetchBlocks(
          java.util.List.of(BLOCK)), Optional.of(ownerCreds), Duration.ofSeconds(5)).join()));
      assertEquals(Status.AUTH_FAILED, e.status());
      Credentials wrongCluster = Credentials.cluster("not-the-cluster-secret".getBytes(StandardCharsets.UTF_8));
      e = ScacheException.from(assertThrows(Exception.class, () -> worker.call(new FetchBlocks(
          java.util.List.of(BLOCK)), Optional.of(wrongCluster), Duration.ofSeconds(5)).join()));
      assertEquals(Status.AUTH_FAILED, e.status());
      // and the master hands out secrets only to daemons
      ScacheConnection master = pool.get("127.0.0.1", cluster.master().port()).join();
      e = ScacheException.from(assertThrows(Exception.class, () -> master.call(new FetchAppSecret(APP),
          Optional.of(ownerCreds), Duration.ofSeconds(5)).join()));
      assertEquals(Status.AUTH_FAILED, e.status());
    }
    assertEquals(putsBefore, cluster.worker(0).stats().get("put.blocks"), "no refused put was stored");
    assertArrayEquals(DATA, owner.getBlock(BLOCK));
  }

  @Test
  void registeringAnEmptySecret_isAnInvalidArgument_notAnInternalError() throws Exception {
    try (ConnectionPool pool = new ConnectionPool(TransportSettings.defaults(), "test")) {
      ScacheConnection master = pool.get("127.0.0.1", cluster.master().port()).join();
      ScacheException e = ScacheException.from(assertThrows(Exception.class, () -> master.call(
          new RegisterApplication("app-empty", new byte[0]), Optional.empty(), Duration.ofSeconds(5)).join()));
      assertEquals(Status.INVALID_ARGUMENT, e.status(), e.getMessage());
      assertEquals("INVALID_ARGUMENT: application app-empty registers an empty secret", e.getMessage());
    }
  }

  private static void assertStatus(Status expected, Runnable call) {
    ScacheException e = assertThrows(ScacheException.class, call::run);
    assertEquals(expected, e.status(), e.getMessage());
  }
}
