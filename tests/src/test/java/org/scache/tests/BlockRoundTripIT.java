package org.scache.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.scache.client.ScacheClient;
import org.scache.common.BlockId;
import org.scache.common.shuffle.PartitionerKind;

/** Four thousand blocks of random sizes (2 GB) put across three workers read back, byte for byte, from every worker. */
@Timeout(600)
class BlockRoundTripIT {
  private static final String APP = "app-roundtrip";
  private static final String SECRET = "roundtrip-secret";
  private static InProcessCluster cluster;

  @BeforeAll
  static void start() throws Exception {
    cluster = InProcessCluster.start(3, 3L << 30);
  }

  @AfterAll
  static void stop() {
    cluster.close();
  }

  /** Log-uniform sizes from 0 B to 8 MiB: most blocks small, some at the maximum. */
  private static int size(SplittableRandom rnd, int i) {
    if (i % 1000 == 0) {
      return BlockData.MAX;
    }
    if (i % 97 == 0) {
      return 0;
    }
    return (int) Math.min(BlockData.MAX, Math.pow(2, rnd.nextDouble() * 23));
  }

  @Test
  void fourThousandBlocks_putOnThreeWorkers_readBackFromEveryWorkerByteForByte() {
    int blocks = 4_000;
    int maps = 40;
    SplittableRandom rnd = new SplittableRandom(7);
    int[] sizes = new int[blocks];
    long total = 0;
    for (int i = 0; i < blocks; i++) {
      sizes[i] = size(rnd, i);
      total += sizes[i];
    }
    List<ScacheClient> clients = new ArrayList<>();
    for (int w = 0; w < cluster.size(); w++) {
      clients.add(cluster.client(w, APP, SECRET));
    }
    try {
      clients.get(0).registerApplication();
      clients.get(0).registerShuffle(0, maps, blocks / maps, PartitionerKind.HASH);
      long t0 = System.nanoTime();
      List<CompletableFuture<Void>> inFlight = new ArrayList<>();
      for (int i = 0; i < blocks; i++) {
        ScacheClient c = clients.get((i / (blocks / maps)) % clients.size());
        inFlight.add(c.putBlockAsync(id(i, blocks / maps), BlockData.view(i, sizes[i])));
        if (inFlight.size() >= 16) {
          inFlight.remove(0).join();
        }
      }
      inFlight.forEach(CompletableFuture::join);
      System.out.printf("put %d blocks, %.1f MiB in %.1f s%n", blocks, total / 1048576.0,
          (System.nanoTime() - t0) / 1e9);
      for (int w = 0; w < cluster.size(); w++) {
        ScacheClient reader = clients.get(w);
        long t1 = System.nanoTime();
        List<CompletableFuture<Boolean>> checks = new ArrayList<>();
        int bad = 0;
        for (int i = 0; i < blocks; i++) {
          int seed = i;
          checks.add(reader.getBlockAsync(id(i, blocks / maps)).thenApply(b -> BlockData.matches(seed, sizes[seed],
              b)));
          if (checks.size() >= 16) {
            bad += checks.remove(0).join() ? 0 : 1;
          }
        }
        for (CompletableFuture<Boolean> c : checks) {
          bad += c.join() ? 0 : 1;
        }
        assertEquals(0, bad, "blocks read through worker " + w + " that differ from what was put");
        System.out.printf("worker %d read back all blocks in %.1f s%n", w, (System.nanoTime() - t1) / 1e9);
      }
      long stored = 0;
      for (int w = 0; w < cluster.size(); w++) {
        stored += cluster.worker(w).stats().get("store.bytes");
        assertTrue(cluster.worker(w).stats().get("memory.used.bytes") <= 3L << 30);
      }
      assertEquals(total, stored, "every byte put is stored exactly once");
    } finally {
      clients.get(0).removeApplication();
      clients.forEach(ScacheClient::close);
    }
  }

  private static BlockId id(int i, int reducesPerMap) {
    return new BlockId(APP, 0, i / reducesPerMap, 0, i % reducesPerMap);
  }
}
