package org.scache.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.scache.client.ScacheClient;
import org.scache.common.BlockId;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import org.scache.common.shuffle.PartitionerKind;
import org.scache.common.testing.Await;

/**
 * Workers configured with a small receive buffer for their connections to each other
 * ({@code scache.worker.fetch.receive.buffer.bytes}): blocks of up to 8 MiB, 500 times that bound, still cross
 * from one worker to the other whole, byte for byte; workers told their link's rate
 * ({@code scache.worker.network.link.mbit}) derive the bound. That the bound reaches the socket is
 * {@code ScacheConnectionIntegrationTest}'s to show.
 */
@Timeout(120)
class BoundedReceiveBufferIT {
  private static final String APP = "app-bounded-window";
  private static final String SECRET = "bounded-window-secret";
  private static final int BOUND = 16 << 10;
  private static InProcessCluster cluster;

  @BeforeAll
  static void start() throws Exception {
    cluster = InProcessCluster.start(2, 512L << 20, ScacheConf.empty()
        .with(ScacheOptions.WORKER_FETCH_RECEIVE_BUFFER.key(), Integer.toString(BOUND)));
  }

  @AfterAll
  static void stop() {
    cluster.close();
  }

  @Test
  void blocksHeldByOneWorker_readThroughTheOtherWithABoundedReceiveBuffer_arriveWholeAcrossTheWorkers() {
    int blocks = 24;
    int[] sizes = new int[blocks];
    long total = 0;
    for (int i = 0; i < blocks; i++) {
      sizes[i] = i % 6 == 0 ? BlockData.MAX : (i + 1) * 97_531;
      total += sizes[i];
    }
    ScacheClient holder = cluster.client(0, APP, SECRET);
    ScacheClient reader = cluster.client(1, APP, SECRET);
    try {
      holder.registerApplication();
      holder.registerShuffle(0, blocks, 1, PartitionerKind.HASH);
      List<CompletableFuture<Void>> puts = new ArrayList<>();
      for (int i = 0; i < blocks; i++) {
        puts.add(holder.putBlockAsync(id(i), BlockData.view(i, sizes[i])));
      }
      puts.forEach(CompletableFuture::join);
      for (int map = 0; map < blocks; map++) {
        // as a map ends: the worker's reports of its blocks reach the master first, so they can be located
        holder.mapFinished(0, map, 0);
      }
      long servedBefore = cluster.stat(0, "fetch.served.bytes");
      List<CompletableFuture<Boolean>> reads = new ArrayList<>();
      for (int i = 0; i < blocks; i++) {
        int seed = i;
        reads.add(reader.getBlockAsync(id(i)).thenApply(b -> BlockData.matches(seed, sizes[seed], b)));
      }
      int bad = 0;
      for (CompletableFuture<Boolean> r : reads) {
        bad += r.join() ? 0 : 1;
      }
      assertEquals(0, bad, "blocks read through the other worker that differ from what was put");
      assertTrue(cluster.stat(0, "fetch.served.bytes") - servedBefore >= total,
          "every block crossed the connection between the workers");
    } finally {
      holder.removeApplication();
      holder.close();
      reader.close();
    }
  }

  @Test
  void workersToldTheirLinkRate_boundTheirConnectionsAtTwiceTheBandwidthDelayProduct_atLeast64KiB() throws Exception {
    // on loopback a round trip takes well under a millisecond once warm (a few hundred bytes at 40 Mbit/s, so the
    // floor), a few milliseconds at first on a busy machine
    try (InProcessCluster told = InProcessCluster.start(2, 64L << 20, ScacheConf.empty()
        .with(ScacheOptions.WORKER_NETWORK_LINK_MBIT.key(), "40"))) {
      for (int w = 0; w < told.size(); w++) {
        int worker = w;
        Await.until(() -> told.stat(worker, "network.master.round.trip.micros") >= 0, Duration.ofSeconds(10),
            "worker " + w + " timed a round trip to the master");
        // the stats read the round trip before the buffer, and the shortest round trip only gets shorter
        java.util.Map<String, Long> stats = told.worker(w).stats();
        long rttMicros = stats.get("network.master.round.trip.micros");
        long buffer = stats.get("fetch.receive.buffer.bytes");
        long most = Math.max(64 << 10, 2 * 5_000_000L * (rttMicros + 1) / 1_000_000 + 1);
        assertTrue(buffer >= 64 << 10 && buffer <= most, "a " + buffer + "-byte buffer after a round trip of "
            + rttMicros + " µs");
      }
      assertEquals(0, cluster.stat(0, "fetch.receive.buffer.bytes") - BOUND,
          "a configured bound is the bound, whatever the round trip");
    }
  }

  private static BlockId id(int map) {
    return new BlockId(APP, 0, map, 0, 0);
  }
}
