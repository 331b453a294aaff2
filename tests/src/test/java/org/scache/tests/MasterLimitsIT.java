package org.scache.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.scache.client.ScacheClient;
import org.scache.common.ScacheException;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import org.scache.common.protocol.Status;
import org.scache.common.shuffle.PartitionerKind;

/**
 * Shuffles with huge shapes cannot run the master out of memory: registrations past the master's
 * budget, or past one application's share of it, are answered LIMIT_EXCEEDED at once, and other
 * applications and the workers go on being served.
 */
@Timeout(60)
class MasterLimitsIT {
  private static InProcessCluster cluster;

  @BeforeAll
  static void start() throws Exception {
    cluster = InProcessCluster.start(1, 16L << 20, ScacheConf.empty()
        .with(ScacheOptions.MASTER_SHUFFLE_STATE_MAX.key(), "64m"));
  }

  @AfterAll
  static void stop() {
    cluster.close();
  }

  @Test
  void shufflesOfAMillionReduces_stopAtTheApplicationsShare_andAnotherApplicationRegisters() {
    try (ScacheClient greedy = cluster.client(0, "app-greedy", "greedy-secret");
         ScacheClient other = cluster.client(0, "app-modest", "modest-secret")) {
      greedy.registerApplication();
      other.registerApplication();
      int accepted = 0;
      ScacheException refused = null;
      for (int shuffle = 0; shuffle < 20 && refused == null; shuffle++) {
        try {
          greedy.registerShuffle(shuffle, 4, 100_000, PartitionerKind.HASH);
          accepted++;
        } catch (ScacheException e) {
          refused = e;
        }
      }
      // each is charged (4 + 100,000) x 64 + 400,000 bits + 100,000 x 4 holders x 4 bytes, ~8.1 MB; the share is
      // 32 MiB
      assertEquals(4, accepted);
      assertEquals(Status.LIMIT_EXCEEDED, refused.status(), refused.getMessage());
      ScacheException huge = assertThrows(ScacheException.class,
          () -> greedy.registerShuffle(99, 10, 100_000_000, PartitionerKind.RANGE));
      assertEquals(Status.LIMIT_EXCEEDED, huge.status(), huge.getMessage());
      assertTrue(huge.getMessage().contains("scache.master.shuffle.state"), huge.getMessage());
      other.registerShuffle(0, 4, 1000, PartitionerKind.HASH);
      // unregistering gives the budget back
      greedy.unregisterShuffle(0);
      greedy.registerShuffle(40, 4, 100_000, PartitionerKind.HASH);
      assertEquals(1, cluster.master().liveWorkers().size(), "the worker was never expired");
    }
  }
}
