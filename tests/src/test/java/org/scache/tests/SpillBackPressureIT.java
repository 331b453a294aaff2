package org.scache.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.scache.client.ScacheClient;
import org.scache.common.BlockId;
import org.scache.common.ScacheException;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import org.scache.common.protocol.Status;

/** A tiny spill directory: when memory and disk are full puts wait, and complete once space frees. */
@Timeout(120)
class SpillBackPressureIT {
  private static final int MIB = 1 << 20;

  private static ScacheConf tinySpill() {
    return ScacheConf.empty().with(ScacheOptions.WORKER_SPILL_CAPACITY.key(), Long.toString(4L * MIB))
        .with(ScacheOptions.WORKER_SPILL_FILE_SIZE.key(), Long.toString(MIB));
  }

  @Test
  void diskFull_putsGetTheRetryStatusAndWait_andAfterSpaceFreesAllComplete() throws Exception {
    try (InProcessCluster cluster = InProcessCluster.start(1, 4L * MIB, tinySpill());
        ScacheClient filler = cluster.client(0, "app-filler", "f");
        ScacheClient waiting = ScacheClient.create(cluster.clientConf(0)
            .with(ScacheOptions.CLIENT_RETRY_BUSY_TIMEOUT.key(), "60s")
            .with(ScacheOptions.CLIENT_RETRY_BACKOFF_MAX.key(), "200ms"), "app-waiting", "w".getBytes())) {
      filler.registerApplication();
      waiting.registerApplication();
      for (int m = 0; m < 8; m++) {
        filler.putBlock(new BlockId("app-filler", 0, m, 0, 0), BlockData.bytes(m, MIB));
      }
      List<CompletableFuture<Void>> puts = new ArrayList<>();
      for (int m = 0; m < 4; m++) {
        puts.add(waiting.putBlockAsync(new BlockId("app-waiting", 0, m, 0, 0), BlockData.view(100 + m, MIB)));
      }
      SpillIT.awaitCondition(() -> waiting.workerStats().get("put.busy") > 0, "the worker answers RETRY_LATER");
      assertFalse(puts.stream().allMatch(CompletableFuture::isDone), "the maps wait");
      for (int m = 0; m < 8; m++) {
        assertArrayEquals(BlockData.bytes(m, MIB), filler.getBlock(new BlockId("app-filler", 0, m, 0, 0)),
            "nothing was lost");
      }
      filler.removeApplication();
      CompletableFuture.allOf(puts.toArray(CompletableFuture[]::new)).join();
      for (int m = 0; m < 4; m++) {
        assertArrayEquals(BlockData.bytes(100 + m, MIB), waiting.getBlock(new BlockId("app-waiting", 0, m, 0, 0)));
      }
      waiting.removeApplication();
    }
  }

  @Test
  void diskFullForLongerThanTheBusyTimeout_failsThePutWithRetryLater() throws Exception {
    try (InProcessCluster cluster = InProcessCluster.start(1, 2L * MIB, tinySpill());
        ScacheClient c = ScacheClient.create(cluster.clientConf(0)
            .with(ScacheOptions.CLIENT_RETRY_BUSY_TIMEOUT.key(), "600ms"), "app-busy", "b".getBytes())) {
      c.registerApplication();
      for (int m = 0; m < 6; m++) {
        c.putBlock(new BlockId("app-busy", 0, m, 0, 0), BlockData.bytes(m, MIB));
      }
      ScacheException e = assertThrows(ScacheException.class,
          () -> c.putBlock(new BlockId("app-busy", 0, 6, 0, 0), BlockData.bytes(6, MIB)));
      assertEquals(Status.RETRY_LATER, e.status());
      assertTrue(e.getMessage().contains("stayed busy"), e.getMessage());
      c.removeApplication();
    }
  }
}
