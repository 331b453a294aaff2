package org.scache.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.scache.client.ScacheClient;
import org.scache.common.BlockId;
import org.scache.common.ScacheException;
import org.scache.common.auth.Credentials;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import org.scache.common.network.ConnectionPool;
import org.scache.common.network.ScacheConnection;
import org.scache.common.network.TransportSettings;
import org.scache.common.protocol.LeaseMemory;
import org.scache.common.protocol.OpenLocal;
import org.scache.common.protocol.PutBlock;
import org.scache.common.protocol.Status;
import org.scache.common.testing.Await;

/**
 * One application cannot take a worker down or keep another out: a flood of tiny or empty blocks
 * stops at the application's share of the worker's block limit, leases that are never filled and
 * socket puts that stall stop at its share of the reserve (and stalled puts give it back), while
 * another application's puts and reads go on in memory.
 */
@Timeout(120)
class ApplicationLimitsIT {
  private static final long RESERVE = 16L << 20;
  private InProcessCluster cluster;

  @AfterEach
  void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static ScacheException refusal(Runnable call) {
    return assertThrows(ScacheException.class, call::run);
  }

  @Test
  void floodOfTinyAndEmptyBlocks_stopsAtTheApplicationsShare_andAnotherApplicationGoesOn() throws Exception {
    cluster = InProcessCluster.start(1, RESERVE, ScacheConf.empty().with(ScacheOptions.WORKER_BLOCKS_MAX, 2000));
    int accepted = 0;
    ScacheException refused = null;
    try (ScacheClient attacker = cluster.client(0, "app-flood", "flood-secret")) {
      attacker.registerApplication();
      for (int i = 0; i < 1500 && refused == null; i++) {
        byte[] data = i % 2 == 0 ? new byte[0] : new byte[] {1};
        try {
          attacker.putBlock(new BlockId("app-flood", 0, i, 0, 0), data);
          accepted++;
        } catch (ScacheException e) {
          refused = e;
        }
      }
    }
    assertEquals(1000, accepted, "half of the worker's 2000 blocks, empty ones counted");
    assertEquals(Status.LIMIT_EXCEEDED, refused.status(), refused.getMessage());
    assertTrue(refused.getMessage().contains("app-flood"), refused.getMessage());
    try (ScacheClient victim = cluster.client(0, "app-victim", "victim-secret")) {
      victim.registerApplication();
      victim.registerShuffle(0, 1, 1, org.scache.common.shuffle.PartitionerKind.HASH);
      byte[] data = "the victim's block".getBytes(StandardCharsets.UTF_8);
      for (int m = 0; m < 200; m++) {
        victim.putBlock(new BlockId("app-victim", 1, m, 0, 0), new byte[] {(byte) m});
      }
      BlockId block = new BlockId("app-victim", 0, 0, 0, 0);
      victim.putBlock(block, data);
      victim.mapFinished(0, 0, 0);
      assertArrayEquals(data, victim.getBlock(block));
    }
  }

  @Test
  void leasesNeverFilled_stopAtTheApplicationsShareOfTheReserve_andAnotherApplicationPutsInMemory()
      throws Exception {
    cluster = InProcessCluster.start(1, RESERVE);
    byte[] secret = "hoard-secret".getBytes(StandardCharsets.UTF_8);
    try (ScacheClient registrar = cluster.client(0, "app-hoard", "hoard-secret");
         ConnectionPool pool = new ConnectionPool(TransportSettings.defaults(), "hoarder")) {
      registrar.registerApplication();
      Credentials hoard = Credentials.application("app-hoard", secret);
      ScacheConnection c = pool.get("127.0.0.1", cluster.worker(0).info().port()).join();
      c.call(new OpenLocal("app-hoard"), Optional.of(hoard), Duration.ofSeconds(5)).join().payload().release();
      long leased = 0;
      ScacheException refused = null;
      for (int i = 0; i < 100 && refused == null; i++) {
        try {
          var r = c.call(new LeaseMemory("app-hoard", 1 << 20), Optional.of(hoard), Duration.ofSeconds(5))
              .join();
          r.payload().release();
          leased += 1 << 20;
        } catch (RuntimeException e) {
          refused = ScacheException.from(e);
        }
      }
      assertEquals(Status.LIMIT_EXCEEDED, refused.status(), refused.getMessage());
      assertEquals(RESERVE / 2, leased, "half the reserve");
      try (ScacheClient other = cluster.client(0, "app-other", "other-secret")) {
        other.registerApplication();
        byte[] block = new byte[256 * 1024];
        for (int i = 0; i < 20; i++) {
          other.putBlock(new BlockId("app-other", 0, i, 0, 0), block);
        }
        assertArrayEquals(block, other.getBlock(new BlockId("app-other", 0, 19, 0, 0)));
      }
      assertEquals(0, cluster.stat(0, "spill.blocks"), "the other application's 5 MiB stayed in memory");
    }
  }

  @Test
  void socketPutsThatStall_holdNoMoreThanTheirApplicationsShare_andGiveTheReserveBackAtTheStallTimeout()
      throws Exception {
    cluster = InProcessCluster.start(1, RESERVE, ScacheConf.empty()
        .with(ScacheOptions.WORKER_PUT_STALL_TIMEOUT.key(), "2s"));
    try (ScacheClient registrar = cluster.client(0, "app-stall", "stall-secret")) {
      registrar.registerApplication();
    }
    Credentials stall = Credentials.application("app-stall", "stall-secret".getBytes(StandardCharsets.UTF_8));
    int port = cluster.worker(0).info().port();
    int announced = 2 << 20;
    List<RawConnection> stalled = new ArrayList<>();
    try {
      // nine connections each announce a 2 MiB put and send 1,000 bytes of it: 18 MiB of a 16 MiB reserve
      for (int i = 0; i < 9; i++) {
        RawConnection c = RawConnection.open(port, false);
        stalled.add(c);
        byte[] frame = c.signed(1, new PutBlock(new BlockId("app-stall", 0, i, 0, 0)), stall, new byte[announced]);
        c.send(Arrays.copyOf(frame, frame.length - announced + 1000));
      }
      Await.until(() -> cluster.stat(0, "memory.used.bytes") >= RESERVE / 2, Duration.ofSeconds(10),
          "the admitted puts took their memory");
      assertEquals(RESERVE / 2, cluster.stat(0, "memory.used.bytes"), "half the reserve, the application's share");

      byte[] block = new byte[1 << 20];
      try (ScacheClient other = cluster.client(0, "app-other", "other-secret")) {
        other.registerApplication();
        for (int i = 0; i < 4; i++) {
          other.putBlock(new BlockId("app-other", 0, i, 0, 0), block);
        }
        for (RawConnection c : stalled) {
          assertEquals(Status.TIMEOUT, c.read().status(), "a stalled put is answered TIMEOUT");
        }
        Await.until(() -> cluster.stat(0, "memory.used.bytes") == 4L << 20, Duration.ofSeconds(10),
            "the stalled puts' memory back in the reserve");
        assertEquals(9, cluster.stat(0, "put.stalled"));
        for (int i = 4; i < 12; i++) {
          other.putBlock(new BlockId("app-other", 0, i, 0, 0), block);
        }
        assertArrayEquals(block, other.getBlock(new BlockId("app-other", 0, 11, 0, 0)));
      }
      assertEquals(0, cluster.stat(0, "spill.blocks"), "the other application's 12 MiB stayed in memory");
    } finally {
      for (RawConnection c : stalled) {
        c.close();
      }
    }
  }
}
