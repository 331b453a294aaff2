package org.scache.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.scache.client.ScacheClient;
import org.scache.client.ShuffleHints;
import org.scache.common.BlockId;
import org.scache.common.ScacheException;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import org.scache.common.protocol.Status;
import org.scache.common.shuffle.MapSample;
import org.scache.common.shuffle.PartitionerKind;
import org.scache.common.shuffle.ShufflePlacement;

/**
 * The master stops after it placed a shuffle: every block stays readable through any worker, found on the
 * workers the placement named, and a block no worker holds fails promptly with the master's failure.
 */
@Timeout(120)
class MasterLossIT {
  private static final String APP = "app-master-loss";
  private static final int MAPS = 3;
  private static final int REDUCES = 3;
  private InProcessCluster cluster;

  @BeforeEach
  void start() throws Exception {
    // without prefetch every block stays on the worker of its map, so reads must look beyond the placed worker
    cluster = InProcessCluster.start(3, 32L << 20, ScacheConf.empty()
        .with(ScacheOptions.WORKER_PREFETCH_ENABLED.key(), "false")
        .with(ScacheOptions.WORKER_FETCH_TIMEOUT.key(), "5s"));
  }

  @AfterEach
  void stop() {
    cluster.close();
  }

  @Test
  void masterStopsAfterPlacement_everyBlockIsReadThroughEveryOtherWorker() throws Exception {
    List<ScacheClient> clients = new ArrayList<>();
    for (int w = 0; w < 3; w++) {
      clients.add(cluster.client(w, APP, "s"));
    }
    try {
      ScacheClient first = clients.get(0);
      first.registerApplication();
      first.registerShuffle(0, MAPS, REDUCES, PartitionerKind.RANGE, ShuffleHints.NONE);
      List<MapSample> samples = new ArrayList<>();
      for (int m = 0; m < MAPS; m++) {
        samples.add(new MapSample(m, 3000, 3 * REDUCES, List.of(3, 3, 3)));
      }
      first.reportSamples(0, samples);
      ShufflePlacement placed = first.getScheduleResult(0);
      assertEquals(3, placed.assignments().stream().map(a -> a.worker().workerId()).distinct().count(),
          "one reduce on each worker");
      // map m runs on worker m
      for (int m = 0; m < MAPS; m++) {
        for (int r = 0; r < REDUCES; r++) {
          clients.get(m).putBlock(new BlockId(APP, 0, m, 0, r), BlockData.bytes(seed(m, r), 1000 + 100 * r));
        }
        clients.get(m).mapFinished(0, m, 0);
      }

      cluster.master().close();

      for (int m = 0; m < MAPS; m++) {
        for (int r = 0; r < REDUCES; r++) {
          int reader = (m + 1) % 3;
          byte[] got = clients.get(reader).getBlock(new BlockId(APP, 0, m, 0, r));
          assertTrue(BlockData.matches(seed(m, r), got), "block " + m + "/" + r + " read through worker " + reader);
        }
      }
      assertTrue(cluster.worker(1).stats().get("read.remote.blocks") >= REDUCES, "worker 1 fetched from a peer");
      ScacheException missing = assertThrows(ScacheException.class,
          () -> clients.get(1).getBlock(new BlockId(APP, 0, 0, 7, 0)));
      assertEquals(Status.CONNECTION_FAILED, missing.status(), missing.getMessage());
      assertArrayEquals(BlockData.bytes(seed(2, 1), 1100), clients.get(2).getBlock(new BlockId(APP, 0, 2, 0, 1)),
          "the holder still serves its own block");
    } finally {
      clients.forEach(ScacheClient::close);
    }
  }

  @Test
  void mapFinishedThatCannotReachTheMaster_keepsTheEarlierAttemptsBlocks() throws Exception {
    try (ScacheClient client = cluster.client(0, APP, "s")) {
      client.registerApplication();
      client.registerShuffle(1, 1, 1, PartitionerKind.HASH);
      BlockId attempt0 = new BlockId(APP, 1, 0, 0, 0);
      BlockId attempt1 = new BlockId(APP, 1, 0, 1, 0);
      client.putBlock(attempt0, BlockData.bytes(1, 500));
      client.mapFinished(1, 0, 0);
      client.putBlock(attempt1, BlockData.bytes(2, 500));

      cluster.master().close();

      ScacheException e = assertThrows(ScacheException.class, () -> client.mapFinished(1, 0, 1));
      assertTrue(e.status().isTransient(), e.getMessage());
      assertArrayEquals(BlockData.bytes(1, 500), client.getBlock(attempt0),
          "attempt 0 stays the final attempt while the master has not heard of attempt 1");
      assertArrayEquals(BlockData.bytes(2, 500), client.getBlock(attempt1));
    }
  }

  private static long seed(int map, int reduce) {
    return 7919L * map + reduce;
  }
}
