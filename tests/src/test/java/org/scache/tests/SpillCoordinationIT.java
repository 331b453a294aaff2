package org.scache.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.scache.client.ReduceInput;
import org.scache.client.ScacheClient;
import org.scache.common.BlockId;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import org.scache.common.shuffle.PartitionerKind;

/**
 * All-or-nothing across the cluster: when one worker spills from a round, the master tells every
 * worker that round is incomplete, and they all rank it first among their victims.
 */
@Timeout(120)
class SpillCoordinationIT {
  private static final int MIB = 1 << 20;

  @Test
  void roundSpilledOnOneWorker_isKnownIncompleteOnEveryWorker_andCompleteAgainOnceRemoved() throws Exception {
    ScacheConf conf = ScacheConf.empty().with(ScacheOptions.WORKER_PREFETCH_ENABLED.key(), "false");
    try (InProcessCluster cluster = InProcessCluster.start(2, 4L * MIB, conf);
        ScacheClient c0 = cluster.client(0, "app-rounds", "r");
        ScacheClient c1 = cluster.client(1, "app-rounds", "r")) {
      c0.registerApplication();
      int maps = 8;
      int reduces = 8;
      c0.registerShuffle(0, maps, reduces, PartitionerKind.HASH);
      // the first two maps (the observation threshold) place the reduces
      for (int m = 0; m < 2; m++) {
        for (int r = 0; r < reduces; r++) {
          c0.putBlock(new BlockId("app-rounds", 0, m, 0, r), BlockData.bytes(SpillIT.seed(m, r), MIB / 8));
        }
        c0.mapFinished(0, m, 0);
      }
      assertEquals(reduces, c0.getScheduleResult(0).assignments().size());
      for (int m = 2; m < maps; m++) {
        for (int r = 0; r < reduces; r++) {
          c0.putBlock(new BlockId("app-rounds", 0, m, 0, r), BlockData.bytes(SpillIT.seed(m, r), MIB / 8));
        }
        c0.mapFinished(0, m, 0);
      }
      assertTrue(c0.workerStats().get("store.spilled.blocks") > 0, "worker 0 had to spill");
      SpillIT.awaitCondition(() -> c0.workerStats().get("rounds.incomplete.here") > 0,
          "worker 0 keeps a round only in part");
      SpillIT.awaitCondition(() -> c1.workerStats().get("rounds.incomplete.cluster") > 0,
          "worker 1 learns of the incomplete round from the master");
      for (int r = 0; r < reduces; r++) {
        ReduceInput in = c1.getReduceInput(0, r);
        for (int m = 0; m < maps; m++) {
          assertTrue(BlockData.matches(SpillIT.seed(m, r), MIB / 8, in.blocks().get(m).data()));
        }
      }
      c0.unregisterShuffle(0);
      SpillIT.awaitCondition(() -> c0.workerStats().get("rounds.incomplete.here") == 0, "nothing is spilled");
      c0.removeApplication();
    }
  }
}
