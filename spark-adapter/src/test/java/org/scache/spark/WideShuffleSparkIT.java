package org.scache.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkEnv;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.util.Utils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.scache.client.ScacheClient;
import org.scache.common.BlockId;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import scala.Tuple2;

/**
 * Spark shuffles on two workers that hold 200 blocks each, 100 of them for one user, the executors' node
 * worker being the first: a shuffle whose maps put more blocks than that worker holds for the application puts
 * the rest on the other; a shuffle wider than both hold, or than they hold beside the shuffles the job created before
 * it, registers with Spark's sort shuffle. Every job gives the sort shuffle's output, and none fails.
 */
class WideShuffleSparkIT {
  private static final int MAPS = 4;
  private static ScacheServices scache;

  @BeforeAll
  static void startScache() throws Exception {
    scache = ScacheServices.start(List.of(Utils.localHostName(), Utils.localHostName()), 0, 64L << 20,
        ScacheConf.empty().with(ScacheOptions.WORKER_BLOCKS_MAX.key(), "200"));
  }

  @AfterAll
  static void stopScache() {
    if (scache != null) {
      scache.close();
    }
  }

  /** A local cluster of two executors whose shuffles go through SCache, their node's worker the first. */
  private static JavaSparkContext throughScache(String name) {
    SparkConf conf = SparkConfs.scache(SparkConfs.base("local-cluster[2,1,1024]", name), scache.masterAddress())
        .set("spark.scache.client.worker.address", "127.0.0.1:" + scache.workerPort(0));
    JavaSparkContext sc = new JavaSparkContext(conf);
    assertTrue(((ScacheShuffleManager) SparkEnv.get().shuffleManager()).isActive(), "SCache is in use");
    return sc;
  }

  /** The numbers 0 to {@code n} - 1. */
  private static List<Integer> numbers(int n) {
    List<Integer> numbers = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      numbers.add(i);
    }
    return numbers;
  }

  /** groupByKey of {@value #MAPS} maps into {@code reduces} partitions: every key's values, sorted. */
  private static List<String> grouped(JavaSparkContext sc, int reduces) {
    List<Integer> numbers = numbers(20_000);
    return ShuffleJobs.groupedNumbers(sc.parallelize(numbers, MAPS).mapToPair(i -> new Tuple2<>(i % 211, i))
        .groupByKey(reduces));
  }

  /** Two groupByKeys of {@value #MAPS} maps into {@code reduces} partitions, joined: two shuffles in one job. */
  private static List<String> joinedGroups(JavaSparkContext sc, int reduces) {
    List<Integer> numbers = numbers(20_000);
    JavaPairRDD<Integer, Iterable<Integer>> left = sc.parallelize(numbers, MAPS)
        .mapToPair(i -> new Tuple2<>(i % 211, i)).groupByKey(reduces);
    JavaPairRDD<Integer, Iterable<Integer>> right = sc.parallelize(numbers, MAPS)
        .mapToPair(i -> new Tuple2<>(i % 307, -i)).groupByKey(reduces);
    return left.join(right).map(t -> {
      long sum = 0;
      for (int v : t._2()._1()) {
        sum += v;
      }
      for (int v : t._2()._2()) {
        sum += v;
      }
      return t._1() + "=" + sum;
    }).collect().stream().sorted().toList();
  }

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void shufflesThatFitOnlyOneAtATime_theFirstTakesSCache_theOthersOfTheJobAndOfALaterJobTheSortShuffle_sameOutput()
      throws InterruptedException {
    List<String> sortSparse;
    List<String> sortJoined;
    List<String> sortGrouped;
    try (JavaSparkContext sc = new JavaSparkContext(SparkConfs.base("local[2]", "booked-sort-shuffle-it"))) {
      sortSparse = sparse(sc, 40);
      sortJoined = joinedGroups(sc, 40);
      sortGrouped = grouped(sc, 40);
    }
    try (JavaSparkContext sc = throughScache("booked-scache-it")) {
      long before = scache.total("put.blocks");
      assertEquals(sortSparse, sparse(sc, 40), "4 maps × 40 reduces of 2 keys");
      assertEquals(MAPS * 2, scache.total("put.blocks") - before, "a block per map and key: 152 partitions empty");

      // the master's answer is not reused past a second, and the workers' heartbeats count the blocks stored
      Thread.sleep(2 * DriverShuffles.ROOM_REUSE_MILLIS);
      long afterSparse = scache.total("put.blocks");
      assertEquals(sortJoined, joinedGroups(sc, 40), "two shuffles of 4 maps × 40 reduces, joined");
      assertEquals(MAPS * 40, scache.total("put.blocks") - afterSparse, "of the 2 × 100 blocks the workers hold "
          + "for one user, the first job's shuffle fills 8, not 160: the first of the two took SCache, not the second");

      // the room for any one owner looks like 200 - 168 again: the first worker is full for this application
      Thread.sleep(2 * DriverShuffles.ROOM_REUSE_MILLIS);
      long held = scache.total("put.blocks");
      assertEquals(sortGrouped, grouped(sc, 40), "a later job's shuffle of 4 maps × 40 reduces");
      assertEquals(held, scache.total("put.blocks"), "the application's shuffles still fill its room");
    }
  }

  /** groupByKey of {@value #MAPS} maps of two keys into {@code reduces} partitions: most partitions empty. */
  private static List<String> sparse(JavaSparkContext sc, int reduces) {
    List<Integer> numbers = numbers(2_000);
    return ShuffleJobs.groupedNumbers(sc.parallelize(numbers, MAPS).mapToPair(i -> new Tuple2<>(i % 2, i))
        .groupByKey(reduces));
  }

  @Test
  void shufflesWiderThanTheNodesWorkerOrThanBothWorkers_giveTheSortShufflesOutput() {
    List<String> sortWide;
    List<String> sortWider;
    try (JavaSparkContext sc = new JavaSparkContext(SparkConfs.base("local[2]", "wide-sort-shuffle-it"))) {
      sortWide = grouped(sc, 40);
      sortWider = grouped(sc, 60);
    }
    try (JavaSparkContext sc = throughScache("wide-scache-it")) {
      long before = scache.total("put.blocks");
      assertEquals(sortWider, grouped(sc, 60), "4 maps × 60 reduces");
      assertEquals(before, scache.total("put.blocks"),
          "240 blocks are more than the 2 × 100 the workers hold for one user: the sort shuffle took them");

      long[] held = {scache.stat(0, "put.blocks"), scache.stat(1, "put.blocks")};
      assertEquals(sortWide, grouped(sc, 40), "4 maps × 40 reduces");
      assertEquals(MAPS * 40, scache.total("put.blocks") - before, "SCache took the 160 blocks");
      assertTrue(scache.stat(0, "put.blocks") - held[0] <= 100, "the executors' worker held its share");
      assertTrue(scache.stat(1, "put.blocks") - held[1] >= 60, "the other worker took the rest");
    }
  }

  /**
   * groupByKey of {@value #MAPS} maps into 10 partitions, the maps waiting until the file {@code gate} exists
   * (the shuffle is registered when the job starts, before they run).
   */
  private static List<String> gated(JavaSparkContext sc, String gate) {
    List<Integer> numbers = numbers(20_000);
    return ShuffleJobs.groupedNumbers(sc.parallelize(numbers, MAPS).mapPartitions(records -> {
      while (!Files.exists(Path.of(gate))) {
        Thread.sleep(20);
      }
      return records;
    }).mapToPair(i -> new Tuple2<>(i % 211, i)).groupByKey(10));
  }

  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void mapsEveryWorkerRefusesAfterTheirShuffleRegistered_runAgainOnTheSortShuffle_andTheJobGivesItsOutput()
      throws Exception {
    Path gate = Files.createTempDirectory("scache-gate").resolve("open");
    Files.createFile(gate);
    List<String> sortOutput;
    try (JavaSparkContext sc = new JavaSparkContext(SparkConfs.base("local[2]", "refused-midway-sort-it"))) {
      sortOutput = gated(sc, gate.toString());
    }
    Files.delete(gate);
    ScacheConf clients = ScacheConf.empty()
        .with(ScacheOptions.CLIENT_MASTER_ADDRESS, scache.masterAddress())
        .with(ScacheOptions.CLIENT_WORKER_ADDRESS, "127.0.0.1:" + scache.workerPort(0));
    List<ScacheClient> others = new ArrayList<>();
    try (JavaSparkContext sc = throughScache("refused-midway-scache-it")) {
      CompletableFuture<List<String>> job = CompletableFuture.supplyAsync(() -> gated(sc, gate.toString()));
      ScacheClient probe = ScacheClient.create(clients, "application_probe_0001", new byte[] {1});
      others.add(probe);
      while (probe.blockRoom().toCome() < MAPS * 10) {
        Thread.sleep(50); // the job's shuffle is not registered yet
      }
      // two other applications take all that both workers hold (2 × 200 blocks), the job's maps not run yet
      for (int app = 0; app < 2; app++) {
        ScacheClient other = ScacheClient.create(clients, "application_fill_000" + app, new byte[] {2});
        others.add(other);
        other.registerApplication();
        for (int block = 0; block < 200; block++) {
          other.putBlock(new BlockId(other.appId(), 0, block, 0, 0), new byte[] {7});
        }
      }
      long refusedBefore = scache.total("put.refused");
      Files.createFile(gate);

      assertEquals(sortOutput, job.get(), "the job's output, every map run again on the sort shuffle");
      assertTrue(scache.total("put.refused") - refusedBefore >= MAPS * 10,
          "every worker refused the maps' blocks first");
    } finally {
      for (ScacheClient other : others) {
        if (!other.appId().contains("probe")) {
          other.removeApplication();
        }
        other.close();
      }
    }
  }
}
