package org.scache.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.scache.client.ReduceInput;
import org.scache.client.ScacheClient;
import org.scache.client.ShuffleHints;
import org.scache.common.BlockId;
import org.scache.common.ScacheException;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import org.scache.common.shuffle.MapSample;
import org.scache.common.shuffle.PartitionerKind;
import org.scache.common.shuffle.ReduceAssignment;
import org.scache.common.shuffle.ShufflePlacement;
import org.scache.common.testing.Await;

/**
 * A reduce that starts while its input is still on its way to its worker (prefetch paced at 1 MiB/s
 * here, as on a slow link) waits for the prefetch and reads every block once: the worker fetches
 * nothing a second time from the blocks' holder. A shuffle its application reads where its maps ran
 * is no longer copied.
 */
class PrefetchInFlightIT {
  private static final int MAPS = 4;
  private static final int BLOCK = 512 * 1024;
  private static InProcessCluster cluster;

  @BeforeAll
  static void start() throws Exception {
    cluster = InProcessCluster.start(2, 64L << 20, ScacheConf.empty()
        .with(ScacheOptions.WORKER_PREFETCH_BANDWIDTH.key(), "1m")
        .with(ScacheOptions.WORKER_PREFETCH_BATCH.key(), "256k"));
  }

  @AfterAll
  static void stop() {
    cluster.close();
  }

  @Test
  void aReduceReadWhileItsBlocksArePrefetched_waitsForThem_andFetchesNothingTwice() throws Exception {
    String app = "app-in-flight";
    int shuffle = 1;
    ScacheClient mapSide = cluster.client(0, app, "secret");
    ScacheClient reduceSide = cluster.client(1, app, "secret");
    try {
      mapSide.registerApplication();
      int reduce = placedOnWorker1(mapSide, shuffle);

      long remoteBefore = cluster.stat(1, "read.remote.blocks");
      long readPrefetchedBefore = cluster.stat(1, "read.prefetched.blocks");
      runMapsOnWorker0(mapSide, app, shuffle);
      ReduceInput input = reduceSide.getReduceInput(shuffle, reduce);

      assertEquals(MAPS, input.blocks().size());
      for (int m = 0; m < MAPS; m++) {
        ReduceInput.Block b = input.blocks().get(m);
        assertEquals(new BlockId(app, shuffle, m, 0, reduce), b.blockId());
        assertTrue(BlockData.matches(seed(m, reduce), BLOCK, b.data()), b.blockId() + " differs");
      }
      assertEquals(0, cluster.stat(1, "read.remote.blocks") - remoteBefore,
          "no block on its way was fetched a second time");
      assertEquals(MAPS, cluster.stat(1, "read.prefetched.blocks") - readPrefetchedBefore,
          "every block was read from its prefetched copy");
    } finally {
      mapSide.removeApplication();
      mapSide.close();
      reduceSide.close();
    }
  }

  @Test
  void aShuffleReadWhereItsMapsRan_isNoLongerPrefetched_andItsReducesAreStillReadWhole() throws Exception {
    String app = "app-in-place";
    int shuffle = 1;
    ScacheClient mapSide = cluster.client(0, app, "secret");
    ScacheClient reduceSide = cluster.client(1, app, "secret");
    try {
      mapSide.registerApplication();
      int reduce = placedOnWorker1(mapSide, shuffle);
      long droppedBefore = cluster.stat(1, "prefetch.dropped.blocks");
      long prefetchedBefore = runMapsOnWorker0(mapSide, app, shuffle);

      reduceSide.readInPlaceAsync(shuffle).join();

      Await.until(() -> cluster.stat(1, "prefetch.backlog.blocks") == 0 && cluster.stat(1, "prefetch.inflight") == 0,
          Duration.ofSeconds(20), "worker 1 copies no more");
      long dropped = cluster.stat(1, "prefetch.dropped.blocks") - droppedBefore;
      long copied = cluster.stat(1, "prefetch.blocks") - prefetchedBefore;
      assertTrue(dropped >= 1, "queued blocks were dropped: " + dropped + ", copied " + copied);
      assertTrue(copied < MAPS, "not every block was copied: " + copied);
      for (int m = 0; m < MAPS; m++) {
        BlockId id = new BlockId(app, shuffle, m, 0, reduce);
        assertTrue(BlockData.matches(seed(m, reduce), reduceSide.getBlock(id)),
            id + " read map by map differs");
      }
      ReduceInput input = reduceSide.getReduceInput(shuffle, reduce);
      assertEquals(MAPS, input.blocks().size());
      for (int m = 0; m < MAPS; m++) {
        assertTrue(BlockData.matches(seed(m, reduce), BLOCK, input.blocks().get(m).data()), m + " differs");
      }
    } finally {
      mapSide.removeApplication();
      mapSide.close();
      reduceSide.close();
    }
  }

  /**
   * Runs every map on worker 0, so that the reduce placed on worker 1 has all its input to prefetch, and returns once
   * worker 1 knows every block is on its way; returns worker 1's prefetched blocks before. The master tells worker 1
   * of each finished map over a connection of its own, which a read could overtake; one block per fetch (batches
   * are smaller than a block).
   */
  private static long runMapsOnWorker0(ScacheClient mapSide, String app, int shuffle) {
    long prefetchedBefore = cluster.stat(1, "prefetch.blocks");
    for (int m = 0; m < MAPS; m++) {
      for (int r = 0; r < 2; r++) {
        mapSide.putBlock(new BlockId(app, shuffle, m, 0, r), BlockData.bytes(seed(m, r), BLOCK));
      }
      mapSide.mapFinished(shuffle, m, 0);
    }
    Await.until(() -> cluster.stat(1, "prefetch.blocks") - prefetchedBefore
        + cluster.stat(1, "prefetch.backlog.blocks") + cluster.stat(1, "prefetch.inflight") >= MAPS,
        Duration.ofSeconds(20), "worker 1 knows the blocks to copy");
    return prefetchedBefore;
  }

  /** Registers a sampled shuffle of {@link #MAPS} maps and two reduces; the reduce the master placed on worker 1. */
  private static int placedOnWorker1(ScacheClient client, int shuffle) {
    client.registerShuffle(shuffle, MAPS, 2, PartitionerKind.RANGE, ShuffleHints.NONE);
    List<MapSample> samples = new ArrayList<>();
    for (int m = 0; m < MAPS; m++) {
      samples.add(new MapSample(m, 2L * BLOCK, 12, List.of(6, 6)));
    }
    client.reportSamples(shuffle, samples);
    AtomicReference<ShufflePlacement> placed = new AtomicReference<>();
    Await.until(() -> {
      try {
        placed.set(client.getScheduleResult(shuffle));
        return true;
      } catch (ScacheException notYet) {
        return false;
      }
    }, Duration.ofSeconds(20), "the sampled shuffle is placed");
    String worker1 = cluster.worker(1).info().workerId();
    return placed.get().assignments().stream().filter(a -> a.worker().workerId().equals(worker1))
        .mapToInt(ReduceAssignment::reduceId).findFirst().orElseThrow();
  }

  private static long seed(int map, int reduce) {
    return 7_000_000L + map * 1000L + reduce;
  }
}
