package org.scache.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.scache.client.ReduceInput;
import org.scache.client.ScacheClient;
import org.scache.common.BlockId;
import org.scache.common.ScacheException;
import org.scache.common.protocol.Status;
import org.scache.common.shuffle.PartitionerKind;
import org.scache.common.shuffle.ReduceAssignment;
import org.scache.common.shuffle.ShufflePlacement;
import org.scache.common.testing.Await;

/** Reduce input, attempts, placement, removal and a full reserve, on an in-process cluster of three workers. */
@Timeout(120)
class StoreBehaviourIT {
  private static InProcessCluster cluster;

  @BeforeAll
  static void start() throws Exception {
    // spilling off: the full-reserve test checks the refusal a worker without a spill disk gives
    cluster = InProcessCluster.start(3, 64L << 20, org.scache.common.config.ScacheConf.empty()
        .with(org.scache.common.config.ScacheOptions.WORKER_SPILL_ENABLED.key(), "false"));
  }

  @AfterAll
  static void stop() {
    cluster.close();
  }

  @Test
  void reduceInput_holdsFinalAttemptOfEveryFinishedMap_inMapOrder_fromAnyWorker() {
    String app = "app-reduce-input";
    int maps = 6;
    int reduces = 4;
    List<ScacheClient> clients = List.of(cluster.client(0, app, "s1"), cluster.client(1, app, "s1"),
        cluster.client(2, app, "s1"));
    try {
      clients.get(0).registerApplication();
      clients.get(0).registerShuffle(3, maps, reduces, PartitionerKind.HASH);
      for (int m = 0; m < maps; m++) {
        ScacheClient c = clients.get(m % 3);
        int finalAttempt = m == 2 ? 1 : 0;
        for (int attempt = 0; attempt <= finalAttempt; attempt++) {
          for (int r = 0; r < reduces; r++) {
            c.putBlock(new BlockId(app, 3, m, attempt, r), BlockData.bytes(seed(m, attempt, r), 1000 + 37 * m + r));
          }
        }
        c.mapFinished(3, m, finalAttempt);
      }
      for (ScacheClient reader : clients) {
        for (int r = 0; r < reduces; r++) {
          ReduceInput in = reader.getReduceInput(3, r);
          assertTrue(in.isComplete());
          assertEquals(maps, in.blocks().size());
          for (int m = 0; m < maps; m++) {
            ReduceInput.Block b = in.blocks().get(m);
            int attempt = m == 2 ? 1 : 0;
            assertEquals(new BlockId(app, 3, m, attempt, r), b.blockId());
            assertTrue(BlockData.matches(seed(m, attempt, r), 1000 + 37 * m + r, b.data()), b.blockId() + " differs");
          }
        }
      }
      // the failed first attempt of map 2 was dropped when attempt 1 was declared final
      ScacheException gone = assertThrows(ScacheException.class,
          () -> clients.get(1).getBlock(new BlockId(app, 3, 2, 0, 0)));
      assertEquals(Status.BLOCK_NOT_FOUND, gone.status());
    } finally {
      clients.get(0).removeApplication();
      clients.forEach(ScacheClient::close);
    }
  }

  @Test
  void putOfSameBlockTwice_isIdempotent_andKeepsTheFirstBytes() {
    String app = "app-idempotent";
    try (ScacheClient c = cluster.client(0, app, "s3")) {
      c.registerApplication();
      BlockId id = new BlockId(app, 0, 0, 0, 0);
      c.putBlock(id, new byte[] {1, 2, 3});
      c.putBlock(id, new byte[] {9, 9, 9});
      assertArrayEquals(new byte[] {1, 2, 3}, c.getBlock(id));
      c.removeApplication();
    }
  }

  @Test
  void putBeyondItsWorkersReserve_goesToTheOthers_beyondEveryWorkersIsRefusedWithStoreFull_earlierStayReadable() {
    String app = "app-full";
    try (ScacheClient c = cluster.client(2, app, "s4")) {
      c.registerApplication();
      byte[] chunk = BlockData.bytes(1, 8 << 20);
      long onOthers = cluster.stat(0, "put.blocks") + cluster.stat(1, "put.blocks");
      int stored = 0;
      ScacheException full = null;
      for (int i = 0; i < 40 && full == null; i++) {
        try {
          c.putBlock(new BlockId(app, 0, i, 0, 0), chunk);
          stored++;
        } catch (ScacheException e) {
          full = e;
        }
      }
      assertTrue(full != null, "three 64 MiB reserves cannot take 40 blocks of 8 MiB");
      assertEquals(Status.STORE_FULL, full.status());
      assertTrue(full.getMessage().contains("no live worker could hold"), full.getMessage());
      assertTrue(stored > 8, "more than worker 2's reserve holds: " + stored);
      assertTrue(cluster.stat(0, "put.blocks") + cluster.stat(1, "put.blocks") > onOthers,
          "the blocks worker 2 had no room for went to the other workers");
      for (int i = 0; i < stored; i++) {
        assertArrayEquals(chunk, c.getBlock(new BlockId(app, 0, i, 0, 0)));
      }
      ScacheException tooLarge = assertThrows(ScacheException.class,
          () -> c.putBlock(new BlockId(app, 1, 0, 0, 0), new byte[(64 << 20) + 1]));
      assertEquals(Status.BLOCK_TOO_LARGE, tooLarge.status());
      c.removeApplication();
    }
  }

  @Test
  void removeApplication_freesItsBlocksOnEveryWorker() throws Exception {
    String app = "app-remove";
    List<ScacheClient> clients = List.of(cluster.client(0, app, "s5"), cluster.client(1, app, "s5"),
        cluster.client(2, app, "s5"));
    try {
      clients.get(0).registerApplication();
      long before = usedMemory();
      for (int w = 0; w < 3; w++) {
        clients.get(w).putBlock(new BlockId(app, 0, w, 0, 0), BlockData.bytes(w, 1 << 20));
      }
      assertTrue(usedMemory() >= before + (3 << 20));
      clients.get(0).removeApplication();
      Await.until(() -> usedMemory() <= before, Duration.ofSeconds(10),
          () -> "memory of the removed application is given back: " + usedMemory() + " bytes used, " + before
              + " before");
      assertEquals(before, usedMemory(), "memory of the removed application is given back");
    } finally {
      clients.forEach(ScacheClient::close);
    }
  }

  @Test
  void scheduleResult_notReadyBeforeAnyMapFinished_thenPlacesEveryReduceOnALiveWorker() {
    String app = "app-schedule";
    try (ScacheClient c = cluster.client(0, app, "s6")) {
      c.registerApplication();
      c.registerShuffle(0, 2, 7, PartitionerKind.HASH);
      ScacheException early = assertThrows(ScacheException.class, () -> c.getScheduleResult(0));
      assertEquals(Status.NOT_READY, early.status());
      c.putBlock(new BlockId(app, 0, 0, 0, 0), new byte[] {1});
      c.mapFinished(0, 0, 0);
      ShufflePlacement s = c.getScheduleResult(0);
      assertEquals("heuristic-minheap", s.policy());
      assertEquals(7, s.assignments().size());
      int[] perWorker = new int[3];
      for (int r = 0; r < 7; r++) {
        ReduceAssignment a = s.assignments().get(r);
        assertEquals(r, a.reduceId());
        int w = Integer.parseInt(a.worker().workerId().substring("worker-".length()));
        assertEquals(perWorker[w]++, a.round(), "rounds count up per worker with one slot");
      }
      assertEquals(s, c.getScheduleResult(0), "a placement, once made, does not change");
      ScacheException unknown = assertThrows(ScacheException.class, () -> c.getScheduleResult(9));
      assertEquals(Status.UNKNOWN_SHUFFLE, unknown.status());
      c.removeApplication();
    }
  }

  private static long usedMemory() {
    long used = 0;
    for (int w = 0; w < cluster.size(); w++) {
      used += cluster.worker(w).stats().get("memory.used.bytes");
    }
    return used;
  }

  private static long seed(int map, int attempt, int reduce) {
    return map * 1000L + attempt * 100L + reduce;
  }
}
