package org.scache.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
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
import org.scache.common.protocol.Status;
import org.scache.common.shuffle.MapSample;
import org.scache.common.shuffle.PartitionerKind;
import org.scache.common.shuffle.ReduceAssignment;
import org.scache.common.shuffle.ShufflePlacement;
import org.scache.common.testing.Await;
import org.scache.master.predict.LinearRegressionPredictor;
import org.scache.master.predict.ObservedMapOutput;
import org.scache.master.predict.ReducePrediction;
import org.scache.master.predict.SamplingPredictor;
import org.scache.master.schedule.AccumulatedSchedule;
import org.scache.master.schedule.AccumulatedScheduler;
import org.scache.master.schedule.HeuristicMinHeapScheduler;
import org.scache.master.schedule.HostPlacement;
import org.scache.sampling.SplitSample;
import org.scache.sampling.WeightedSamplingPredictor;

/**
 * Prediction, pre-scheduling and prefetch end to end: the master places reduces with Algorithm 1
 * or 2 once a shuffle is observed enough (or sampled), the workers prefetch the blocks of the
 * reduces placed on them, and a reduce reads its whole input on its worker without a remote read.
 */
class PrefetchScheduleIT {
  private static final double THRESHOLD = 0.5;
  private static final List<String> HOSTS = List.of("worker-0", "worker-1", "worker-2");
  private static InProcessCluster cluster;

  @BeforeAll
  static void start() throws Exception {
    cluster = InProcessCluster.start(3, 64L << 20, ScacheConf.empty()
        .with(ScacheOptions.MASTER_SCHEDULE_OBSERVATION_THRESHOLD.key(), Double.toString(THRESHOLD))
        .with(ScacheOptions.MASTER_SCHEDULE_SLOTS_PER_WORKER.key(), "1"));
  }

  @AfterAll
  static void stop() {
    cluster.close();
  }

  /** Block (map, reduce) of a skewed shuffle: reduce 0 is 8× the others, bytes ∝ the map's input. */
  private static int hashBlockSize(long input, int reduce) {
    return (int) ((reduce == 0 ? 8 : 1 + reduce % 3) * input / 10);
  }

  @Test
  void hashShuffle_placedByAlgorithm1AtThreshold_andEveryReduceIsPrefetchedToItsWorker() throws Exception {
    String app = "app-prefetch";
    int maps = 6;
    int reduces = 6;
    int shuffle = 1;
    List<Long> inputs = List.of(3000L, 5000L, 4000L, 6000L, 2000L, 7000L);
    List<ScacheClient> clients = clients(app);
    try {
      clients.get(0).registerApplication();
      clients.get(0).registerShuffle(shuffle, maps, reduces, PartitionerKind.HASH, ShuffleHints.inputSizes(inputs));
      ScacheException early = assertThrows(ScacheException.class, () -> clients.get(0).getScheduleResult(shuffle));
      assertEquals(Status.NOT_READY, early.status());

      int needed = (int) Math.ceil(THRESHOLD * maps);
      for (int m = 0; m < needed; m++) {
        runMap(clients.get(m % 3), app, shuffle, m, 0, reduces, inputs.get(m));
      }
      ShufflePlacement placed = clients.get(0).getScheduleResult(shuffle);

      List<ObservedMapOutput> observed = new ArrayList<>();
      for (int m = 0; m < needed; m++) {
        long[] blocks = new long[reduces];
        for (int r = 0; r < reduces; r++) {
          blocks[r] = hashBlockSize(inputs.get(m), r);
        }
        observed.add(new ObservedMapOutput(m, HOSTS.get(m % 3), blocks));
      }
      long[] inputArray = inputs.stream().mapToLong(Long::longValue).toArray();
      List<ReducePrediction> predicted = new LinearRegressionPredictor(reduces).predict(inputArray, observed);
      HostPlacement expected = new HeuristicMinHeapScheduler().schedule(maps, HOSTS, predicted);
      assertPlacement(expected, placed, "heuristic-minheap");

      for (int m = needed; m < maps; m++) {
        runMap(clients.get(m % 3), app, shuffle, m, 0, reduces, inputs.get(m));
      }
      awaitPrefetched(placed, app, shuffle, maps, reduces);
      for (ReduceAssignment a : placed.assignments()) {
        int w = workerIndex(a);
        Map<String, Long> before = cluster.worker(w).stats();
        ReduceInput in = clients.get(w).getReduceInput(shuffle, a.reduceId());
        Map<String, Long> after = cluster.worker(w).stats();
        assertEquals(before.get("read.remote.blocks"), after.get("read.remote.blocks"),
            "reduce " + a.reduceId() + " is read on its worker without a remote read");
        assertTrue(in.isComplete());
        assertEquals(maps, in.blocks().size());
        for (int m = 0; m < maps; m++) {
          ReduceInput.Block b = in.blocks().get(m);
          assertEquals(new BlockId(app, shuffle, m, 0, a.reduceId()), b.blockId());
          assertTrue(BlockData.matches(seed(shuffle, m, 0, a.reduceId()), hashBlockSize(inputs.get(m), a.reduceId()),
              b.data()), b.blockId() + " differs");
        }
      }
    } finally {
      clients.get(0).removeApplication();
      clients.forEach(ScacheClient::close);
    }
  }

  @Test
  void rangeShuffle_placedAsSoonAsEveryMapIsSampled_beforeAnyMapRuns() throws Exception {
    String app = "app-sampling";
    int maps = 4;
    int reduces = 4;
    int shuffle = 2;
    int capacity = 3 * reduces;
    List<List<Integer>> counts = List.of(List.of(12, 0, 0, 0), List.of(6, 6, 0, 0), List.of(0, 0, 12, 0),
        List.of(0, 0, 3, 9));
    List<Long> inputs = List.of(4000L, 2000L, 3000L, 1000L);
    List<ScacheClient> clients = clients(app);
    try {
      clients.get(0).registerApplication();
      clients.get(0).registerShuffle(shuffle, maps, reduces, PartitionerKind.RANGE, ShuffleHints.NONE);
      List<MapSample> samples = new ArrayList<>();
      List<SplitSample> splits = new ArrayList<>();
      for (int m = 0; m < maps; m++) {
        samples.add(new MapSample(m, inputs.get(m), capacity, counts.get(m)));
        splits.add(SplitSample.of(inputs.get(m), capacity, counts.get(m).stream().mapToInt(i -> i).toArray()));
      }
      clients.get(0).reportSamples(shuffle, samples.subList(0, 2));
      assertEquals(Status.NOT_READY, assertThrows(ScacheException.class,
          () -> clients.get(0).getScheduleResult(shuffle)).status());
      clients.get(0).reportSamples(shuffle, samples.subList(2, 4));
      ShufflePlacement placed = clients.get(0).getScheduleResult(shuffle);

      List<ReducePrediction> predicted = new SamplingPredictor(new WeightedSamplingPredictor(reduces, 3))
          .predict(splits, java.util.Collections.nCopies(maps, Optional.<String>empty()));
      assertPlacement(new HeuristicMinHeapScheduler().schedule(maps, HOSTS, predicted), placed, "heuristic-minheap");

      for (int m = 0; m < maps; m++) {
        runRangeMap(clients.get(m % 3), app, shuffle, m, counts.get(m));
      }
      awaitPrefetched(placed, app, shuffle, maps, reduces);
      for (ReduceAssignment a : placed.assignments()) {
        int w = workerIndex(a);
        long remoteBefore = cluster.worker(w).stats().get("read.remote.blocks");
        ReduceInput in = clients.get(w).getReduceInput(shuffle, a.reduceId());
        assertEquals(remoteBefore, cluster.worker(w).stats().get("read.remote.blocks"));
        for (int m = 0; m < maps; m++) {
          int size = 100 * counts.get(m).get(a.reduceId());
          assertTrue(BlockData.matches(seed(shuffle, m, 0, a.reduceId()), size, in.blocks().get(m).data()));
        }
      }
    } finally {
      clients.get(0).removeApplication();
      clients.forEach(ScacheClient::close);
    }
  }

  @Test
  void twoShufflesOfOneStage_secondPlacedByAlgorithm2_andTheMovedReduceIsReshuffled() throws Exception {
    String app = "app-stage";
    int reduces = 3;
    int maps = 2;
    int stage = 7;
    List<ScacheClient> clients = clients(app);
    try {
      clients.get(0).registerApplication();
      // map 0 (observed at the threshold) reads nearly all the input, so one host holds nearly all of a reduce
      ShuffleHints hints = ShuffleHints.inputSizes(List.of(1000L, 1L)).inStage(stage);
      clients.get(0).registerShuffle(10, maps, reduces, PartitionerKind.HASH, hints);
      clients.get(0).registerShuffle(11, maps, reduces, PartitionerKind.HASH, hints);
      // shuffle 10: even reduces, all map output on worker-0
      int[] sizesA = {100, 100, 100};
      // shuffle 11: reduce 0 dominates, all map output on worker-1
      int[] sizesB = {5000, 100, 100};
      for (int m = 0; m < maps; m++) {
        runMapWithSizes(clients.get(0), app, 10, m, sizesA);
      }
      ShufflePlacement first = clients.get(0).getScheduleResult(10);
      for (int m = 0; m < maps; m++) {
        runMapWithSizes(clients.get(1), app, 11, m, sizesB);
      }
      ShufflePlacement second = clients.get(0).getScheduleResult(11);

      AccumulatedScheduler acc = new AccumulatedScheduler();
      long[] inputs = {1000, 1};
      AccumulatedSchedule a = acc.schedule(maps, HOSTS, predictionsOf(sizesA, inputs, "worker-0"));
      AccumulatedSchedule b = acc.schedule(maps, HOSTS, predictionsOf(sizesB, inputs, "worker-1"));
      assertPlacement(a.result(), first, "heuristic-minheap");
      assertPlacement(b.result(), second, "accumulated");
      assertFalse(b.reshuffles().isEmpty(), "the data is shaped so that Algorithm 2 moves a reduce");

      ShufflePlacement firstNow = clients.get(0).getScheduleResult(10);
      for (var move : b.reshuffles()) {
        int r = move.reduceId();
        assertEquals(move.toHost(), firstNow.assignments().get(r).worker().workerId(),
            "the earlier shuffle's reduce follows the re-shuffle");
        int w = HOSTS.indexOf(move.toHost());
        List<BlockId> input = new ArrayList<>();
        for (int m = 0; m < maps; m++) {
          input.add(new BlockId(app, 10, m, 0, r));
        }
        awaitHeld(cluster, w, input, "the earlier shuffle's input of moved reduce " + r + " is on its new worker "
            + move.toHost());
        assertTrue(readsLocally(cluster, w, clients.get(w), 10, r), "moved reduce " + r + " read locally");
        ReduceInput earlier = clients.get(w).getReduceInput(10, r);
        for (int m = 0; m < maps; m++) {
          assertTrue(BlockData.matches(seed(10, m, 0, r), sizesA[r], earlier.blocks().get(m).data()));
        }
      }
    } finally {
      clients.get(0).removeApplication();
      clients.forEach(ScacheClient::close);
    }
  }

  @Test
  void reduceInput_whenAMapNeverFinishes_failsWithInputIncomplete_orAnswersPartiallyOnRequest() {
    String app = "app-incomplete";
    try (ScacheClient c = cluster.client(0, app, "s")) {
      c.registerApplication();
      c.registerShuffle(0, 2, 1, PartitionerKind.HASH);
      c.putBlock(new BlockId(app, 0, 0, 0, 0), new byte[] {1, 2, 3});
      c.mapFinished(0, 0, 0);
      long t0 = System.nanoTime();
      ScacheException e = assertThrows(ScacheException.class, () -> c.getReduceInput(0, 0, Duration.ofMillis(500)));
      long took = System.nanoTime() - t0;
      assertEquals(Status.INPUT_INCOMPLETE, e.status());
      assertTrue(e.getMessage().contains("1 of 2 maps finished"), e.getMessage());
      assertTrue(took >= Duration.ofMillis(450).toNanos() && took < Duration.ofSeconds(5).toNanos(), "took " + took);
      ReduceInput partial = c.getReduceInput(0, 0, Duration.ZERO);
      assertEquals(1, partial.blocks().size());
      assertEquals(2, partial.numMaps());
      assertEquals(1, partial.finishedMaps());
      assertFalse(partial.isComplete());
      c.removeApplication();
    }
  }

  @Test
  void mapRerunAfterItsWorkerDied_isPrefetched_andTheReduceInputIsComplete() throws Exception {
    String app = "app-rerun";
    int shuffle = 0;
    int reduces = 3;
    int[] sizes = {300, 200, 100};
    try (InProcessCluster own = InProcessCluster.start(3, 32L << 20, ScacheConf.empty()
        .with(ScacheOptions.MASTER_SCHEDULE_OBSERVATION_THRESHOLD.key(), "0.5"))) {
      ScacheClient c0 = own.client(0, app, "s");
      ScacheClient c2 = own.client(2, app, "s");
      try (ScacheClient c1 = own.client(1, app, "s")) {
        c0.registerApplication();
        c0.registerShuffle(shuffle, 3, reduces, PartitionerKind.HASH);
        runMapWithSizes(c0, app, shuffle, 0, sizes);
        runMapWithSizes(c1, app, shuffle, 1, sizes);
      }
      ShufflePlacement placed = c0.getScheduleResult(shuffle);
      own.stopWorker(1);
      awaitTrue(() -> own.master().liveWorkers().size() == 2, Duration.ofSeconds(10), "worker-1 expires");
      // map 1's output died with its worker: it is run again (attempt 1) on worker 2, and map 2 too
      for (int r = 0; r < reduces; r++) {
        c2.putBlock(new BlockId(app, shuffle, 1, 1, r), BlockData.bytes(seed(shuffle, 1, 1, r), sizes[r]));
      }
      c2.mapFinished(shuffle, 1, 1);
      runMapWithSizes(c2, app, shuffle, 2, sizes);
      for (ReduceAssignment a : placed.assignments()) {
        int w = workerIndex(a);
        if (w == 1) {
          continue;
        }
        ScacheClient reader = w == 0 ? c0 : c2;
        int r = a.reduceId();
        awaitHeld(own, w, List.of(new BlockId(app, shuffle, 0, 0, r), new BlockId(app, shuffle, 1, 1, r),
            new BlockId(app, shuffle, 2, 0, r)),
            "the re-run map's blocks of reduce " + r + " were prefetched to worker-" + w);
        assertTrue(readsLocally(own, w, reader, shuffle, r), "reduce " + r + " read on worker-" + w + " locally");
        ReduceInput in = reader.getReduceInput(shuffle, r);
        assertEquals(List.of(new BlockId(app, shuffle, 0, 0, r), new BlockId(app, shuffle, 1, 1, r),
            new BlockId(app, shuffle, 2, 0, r)), in.blocks().stream().map(ReduceInput.Block::blockId).toList());
        assertTrue(BlockData.matches(seed(shuffle, 1, 1, r), sizes[r], in.blocks().get(1).data()));
      }
      c0.removeApplication();
      c0.close();
      c2.close();
    }
  }

  @Test
  void aBurstOfMapEndsAfterThePlacement_hasEveryBlockPrefetched_whetherToldOneByOneOrTogether() throws Exception {
    String app = "app-burst";
    int shuffle = 2;
    int maps = 60;
    int reduces = 6;
    List<ScacheClient> clients = clients(app);
    try {
      clients.get(0).registerApplication();
      clients.get(0).registerShuffle(shuffle, maps, reduces, PartitionerKind.HASH);
      int needed = (int) Math.ceil(THRESHOLD * maps);
      for (int m = 0; m < needed; m++) {
        runMap(clients.get(m % 3), app, shuffle, m, 0, reduces, 1000);
      }
      ShufflePlacement placed = clients.get(0).getScheduleResult(shuffle);
      // the rest end together: while the master's first notice to a worker is unanswered, the next ones wait and
      // go in one message
      List<java.util.concurrent.CompletableFuture<Void>> ends = new ArrayList<>();
      for (int m = needed; m < maps; m++) {
        ScacheClient c = clients.get(m % 3);
        for (int r = 0; r < reduces; r++) {
          c.putBlock(new BlockId(app, shuffle, m, 0, r), BlockData.bytes(seed(shuffle, m, 0, r), 100 + r));
        }
      }
      for (int m = needed; m < maps; m++) {
        ends.add(clients.get(m % 3).mapFinishedAsync(shuffle, m, 0));
      }
      ends.forEach(java.util.concurrent.CompletableFuture::join);
      for (ReduceAssignment a : placed.assignments()) {
        int w = workerIndex(a);
        List<BlockId> input = new ArrayList<>();
        for (int m = 0; m < maps; m++) {
          input.add(new BlockId(app, shuffle, m, 0, a.reduceId()));
        }
        awaitHeld(cluster, w, input, "every block of reduce " + a.reduceId() + " on worker-" + w);
        assertTrue(readsLocally(cluster, w, clients.get(w), shuffle, a.reduceId()));
      }
    } finally {
      clients.get(0).removeApplication();
      clients.forEach(ScacheClient::close);
    }
  }

  // ---------------------------------------------------------------- helpers

  /**
   * Waits until worker {@code w} holds every one of {@code ids}, reading none of them: a block a read
   * fetched from its holder is not copied to the reader's worker after it.
   */
  private static void awaitHeld(InProcessCluster c, int w, List<BlockId> ids, String what) {
    awaitTrue(() -> ids.stream().allMatch(c.worker(w)::holds), Duration.ofSeconds(10), what);
  }

  /** Reads the reduce's complete input through worker {@code w}; true if that made no remote read. */
  private static boolean readsLocally(InProcessCluster c, int w, ScacheClient reader, int shuffle, int reduce) {
    long before = c.worker(w).stats().get("read.remote.blocks");
    ReduceInput in = reader.getReduceInput(shuffle, reduce);
    return in.isComplete() && c.worker(w).stats().get("read.remote.blocks") == before;
  }

  private static List<ReducePrediction> predictionsOf(int[] perMapSizes, long[] inputs, String host) {
    List<ObservedMapOutput> observed = new ArrayList<>();
    long[] blocks = java.util.Arrays.stream(perMapSizes).asLongStream().toArray();
    int needed = (int) Math.ceil(THRESHOLD * inputs.length);
    for (int m = 0; m < needed; m++) {
      observed.add(new ObservedMapOutput(m, host, blocks));
    }
    return new LinearRegressionPredictor(perMapSizes.length).predict(inputs, observed);
  }

  private static void assertPlacement(HostPlacement expected, ShufflePlacement placed, String policy) {
    assertEquals(policy, placed.policy());
    assertEquals(expected.reduceCount(), placed.assignments().size());
    for (ReduceAssignment a : placed.assignments()) {
      assertEquals(expected.hostOf(a.reduceId()), a.worker().workerId(), "host of reduce " + a.reduceId());
      assertEquals(expected.roundOf(a.reduceId(), 1), a.round(), "round of reduce " + a.reduceId());
    }
  }

  /** Waits until every block of every reduce is held by the reduce's worker (put there or prefetched). */
  private static void awaitPrefetched(ShufflePlacement placed, String app, int shuffle, int maps, int reduces)
      throws InterruptedException {
    long expectedCopies = 0;
    for (ReduceAssignment a : placed.assignments()) {
      for (int m = 0; m < maps; m++) {
        // map m ran on worker m % 3
        if (m % 3 != workerIndex(a)) {
          expectedCopies++;
        }
      }
    }
    long copies = expectedCopies;
    awaitTrue(() -> {
      long sum = 0;
      for (int w = 0; w < cluster.size(); w++) {
        sum += cluster.worker(w).stats().get("prefetch.blocks");
      }
      return sum >= copies + prefetchedBefore(app);
    }, Duration.ofSeconds(10), copies + " blocks of " + app + " prefetched");
  }

  private static final Map<String, Long> BASELINE = new java.util.concurrent.ConcurrentHashMap<>();

  /** Prefetched blocks counted before the application's first shuffle (counters are cumulative). */
  private static long prefetchedBefore(String app) {
    return BASELINE.getOrDefault(app, 0L);
  }

  private static List<ScacheClient> clients(String app) {
    long sum = 0;
    for (int w = 0; w < cluster.size(); w++) {
      sum += cluster.worker(w).stats().get("prefetch.blocks");
    }
    BASELINE.put(app, sum);
    return List.of(cluster.client(0, app, "secret"), cluster.client(1, app, "secret"),
        cluster.client(2, app, "secret"));
  }

  private static int workerIndex(ReduceAssignment a) {
    return HOSTS.indexOf(a.worker().workerId());
  }

  private static void runMap(ScacheClient c, String app, int shuffle, int map, int attempt, int reduces, long input) {
    for (int r = 0; r < reduces; r++) {
      int size = hashBlockSize(input, r);
      c.putBlock(new BlockId(app, shuffle, map, attempt, r), BlockData.bytes(seed(shuffle, map, attempt, r), size));
    }
    c.mapFinished(shuffle, map, attempt);
  }

  private static void runRangeMap(ScacheClient c, String app, int shuffle, int map, List<Integer> counts) {
    for (int r = 0; r < counts.size(); r++) {
      int size = 100 * counts.get(r);
      c.putBlock(new BlockId(app, shuffle, map, 0, r), BlockData.bytes(seed(shuffle, map, 0, r), size));
    }
    c.mapFinished(shuffle, map, 0);
  }

  private static void runMapWithSizes(ScacheClient c, String app, int shuffle, int map, int[] sizes) {
    for (int r = 0; r < sizes.length; r++) {
      c.putBlock(new BlockId(app, shuffle, map, 0, r), BlockData.bytes(seed(shuffle, map, 0, r), sizes[r]));
    }
    c.mapFinished(shuffle, map, 0);
  }

  private static long seed(int shuffle, int map, int attempt, int reduce) {
    return shuffle * 1_000_000L + map * 1000L + attempt * 100L + reduce;
  }

  private static void awaitTrue(BooleanSupplier condition, Duration timeout, String what) {
    Await.until(condition, timeout, what);
  }
}
