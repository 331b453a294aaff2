package org.scache.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.scache.client.ScacheClient;
import org.scache.common.BlockId;
import org.scache.common.ScacheException;
import org.scache.common.protocol.Status;
import org.scache.common.shuffle.PartitionerKind;

/** A worker that dies takes its blocks with it: readers get BLOCK_NOT_FOUND promptly, never a hang. */
@Timeout(120)
class WorkerFailureIT {
  private static final String APP = "app-failure";
  private InProcessCluster cluster;

  @BeforeEach
  void start() throws Exception {
    // without prefetch: a copy on the reading worker would outlive the holder and hide the loss tested here
    cluster = InProcessCluster.start(2, 32L << 20, org.scache.common.config.ScacheConf.empty()
        .with(org.scache.common.config.ScacheOptions.WORKER_PREFETCH_ENABLED.key(), "false"));
  }

  @AfterEach
  void stop() {
    cluster.close();
  }

  @Test
  void killedAndRestartedWorker_itsBlocksAreReportedMissing_withinTheTimeout() throws Exception {
    BlockId onVictim = new BlockId(APP, 0, 0, 0, 0);
    BlockId onSurvivor = new BlockId(APP, 0, 1, 0, 0);
    try (ScacheClient victimSide = cluster.client(1, APP, "s");
        ScacheClient reader = cluster.client(0, APP, "s")) {
      reader.registerApplication();
      reader.registerShuffle(0, 2, 1, PartitionerKind.HASH);
      victimSide.putBlock(onVictim, new byte[] {1, 2, 3});
      victimSide.mapFinished(0, 0, 0);
      reader.putBlock(onSurvivor, new byte[] {4, 5});
      reader.mapFinished(0, 1, 0);
      assertArrayEquals(new byte[] {1, 2, 3}, reader.getBlock(onVictim));

      cluster.stopWorker(1);
      assertMissingQuickly(() -> reader.getBlock(onVictim));
      assertMissingQuickly(() -> reader.getReduceInput(0, 0));
      assertArrayEquals(new byte[] {4, 5}, reader.getBlock(onSurvivor), "the survivor's blocks are untouched");

      cluster.startWorker(1);
      cluster.awaitRegistered(Duration.ofSeconds(20));
      assertMissingQuickly(() -> reader.getBlock(onVictim));
      assertMissingQuickly(() -> reader.getReduceInput(0, 0));
      try (ScacheClient restarted = cluster.client(1, APP, "s")) {
        assertMissingQuickly(() -> restarted.getBlock(onVictim));
        restarted.putBlock(new BlockId(APP, 0, 0, 1, 0), new byte[] {7});
        restarted.mapFinished(0, 0, 1);
      }
      assertEquals(2, reader.getReduceInput(0, 0).blocks().size(), "the re-run map's block replaces the lost one");
    }
  }

  @Test
  void workerDownForAClient_failsWithConnectionFailed_afterItsRetries() {
    cluster.stopWorker(0);
    try (ScacheClient c = cluster.client(0, APP, "s")) {
      long t0 = System.nanoTime();
      ScacheException e = assertThrows(ScacheException.class, () -> c.putBlock(new BlockId(APP, 0, 0, 0, 0),
          new byte[] {1}));
      assertEquals(Status.CONNECTION_FAILED, e.status());
      assertTrue(System.nanoTime() - t0 < Duration.ofSeconds(10).toNanos());
    }
  }

  private static void assertMissingQuickly(Runnable read) {
    long t0 = System.nanoTime();
    ScacheException e = assertThrows(ScacheException.class, read::run);
    long ms = (System.nanoTime() - t0) / 1_000_000;
    assertEquals(Status.BLOCK_NOT_FOUND, e.status(), e.getMessage());
    assertTrue(ms < 10_000, "answered in " + ms + " ms, within the 10 s request timeout");
  }
}
