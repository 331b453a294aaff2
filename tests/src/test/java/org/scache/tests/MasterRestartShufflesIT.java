package org.scache.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.scache.client.ReduceInput;
import org.scache.client.ScacheClient;
import org.scache.common.BlockId;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import org.scache.common.shuffle.PartitionerKind;
import org.scache.common.shuffle.ShufflePlacement;

/**
 * A lone master with a state directory restarts in the middle of a shuffle: it still knows the shuffle's
 * maps and reduces, hands out the same placement, hears the finished maps again from the workers, and
 * every reduce reads what its maps put.
 */
@Timeout(120)
class MasterRestartShufflesIT {
  private static final String APP = "app-restart";
  private static final int MAPS = 4;
  private static final int REDUCES = 3;
  private InProcessCluster cluster;

  @AfterEach
  void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void restartedMaster_keepsShufflesAndPlacements_andTheWorkersResendTheirFinishedMaps(@TempDir Path state)
      throws Exception {
    cluster = InProcessCluster.start(2, 16L << 20, ScacheConf.empty()
        .with(ScacheOptions.MASTER_STATE_DIR, state.resolve("master").toString()));
    try (ScacheClient c0 = cluster.client(0, APP, "s"); ScacheClient c1 = cluster.client(1, APP, "s")) {
      c0.registerApplication();
      c0.registerShuffle(0, MAPS, REDUCES, PartitionerKind.HASH);
      for (int m = 0; m < MAPS - 1; m++) {
        runMap(m % 2 == 0 ? c0 : c1, m);
      }
      ShufflePlacement placed = c0.getScheduleResult(0);

      cluster.restartMaster();
      cluster.awaitRegistered(Duration.ofSeconds(20));

      assertEquals(placed, c1.getScheduleResult(0), "the same placement after the restart");
      runMap(c1, MAPS - 1);
      for (int r = 0; r < REDUCES; r++) {
        ReduceInput in = (r % 2 == 0 ? c0 : c1).getReduceInput(0, r);
        assertTrue(in.isComplete(), "reduce " + r + ": every map finished, the earlier ones re-sent by the workers");
        assertEquals(MAPS, in.blocks().size());
        for (ReduceInput.Block b : in.blocks()) {
          byte[] got = new byte[b.data().remaining()];
          b.data().duplicate().get(got);
          assertTrue(BlockData.matches(seed(b.blockId().mapId(), r), got), b.blockId() + " as put");
        }
      }
    }
  }

  private static void runMap(ScacheClient c, int map) {
    for (int r = 0; r < REDUCES; r++) {
      c.putBlock(new BlockId(APP, 0, map, 0, r), BlockData.bytes(seed(map, r), 1500 + 100 * r));
    }
    c.mapFinished(0, map, 0);
  }

  private static long seed(int map, int reduce) {
    return 31L * map + reduce;
  }
}
