package org.scache.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkEnv;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.scache.common.shuffle.ShufflePlacement;
import org.scache.common.testing.ListenPorts;
import scala.Tuple2;

/**
 * Reduce tasks run on the hosts SCache placed them on, with executors on two distinct hosts (a
 * standalone Spark cluster whose workers listen on 127.0.0.2 and 127.0.0.3, each beside an SCache
 * worker on the same address), and read their input from their own node.
 */
class SparkPlacementIT {
  private static final List<String> HOSTS = List.of("127.0.0.2", "127.0.0.3");
  private static ScacheServices scache;
  private static StandaloneSparkCluster spark;
  private static int workerPort;

  @BeforeAll
  static void start() throws Exception {
    workerPort = ListenPorts.freeOnEvery(HOSTS);
    scache = ScacheServices.start(HOSTS, workerPort, 256L << 20);
    spark = new StandaloneSparkCluster(HOSTS, 1, 1024);
  }

  @AfterAll
  static void stop() {
    if (spark != null) {
      spark.close();
    }
    if (scache != null) {
      scache.close();
    }
  }

  /** The host and reduce partition of every task of the job's last stage. */
  private static final class ResultTasks extends SparkListener {
    final Map<Integer, Map<Integer, String>> hostByStageAndPartition = new ConcurrentHashMap<>();

    @Override
    public void onTaskEnd(SparkListenerTaskEnd end) {
      hostByStageAndPartition.computeIfAbsent(end.stageId(), s -> new ConcurrentHashMap<>())
          .put(end.taskInfo().index(), end.taskInfo().host());
    }
  }

  /** An application on both hosts through SCache, whose reduce tasks wait for their placed host. */
  private static SparkConf placedConf(String name) {
    return SparkConfs.scache(SparkConfs.base(spark.masterUrl(), name), scache.masterAddress())
        .set("spark.scache.worker.rpc.port", Integer.toString(workerPort))
        .set("spark.cores.max", "2")
        // a placed task waits for its host rather than run elsewhere at once
        .set("spark.locality.wait", "30s");
  }

  private static List<String> wordCount(JavaSparkContext sc) {
    List<String> out = new ArrayList<>(sc.parallelize(ShuffleJobs.numbers(60_000), 8)
        .mapToPair(i -> new Tuple2<>("w" + (i * 7919L % 1000), 1L)).reduceByKey(Long::sum, 6)
        .map(kv -> kv._1() + "=" + kv._2()).collect());
    out.sort(null);
    return out;
  }

  @Test
  void reduceTasks_runOnTheirPlacedHosts_andReadTheirInputOnTheirNode() throws Exception {
    SparkConf conf = placedConf("placement-it");
    ResultTasks tasks = new ResultTasks();
    // the workers' counters are shared by this class's tests: count this job's reads only
    long localBefore = scache.total("read.local.blocks");
    long prefetchedBefore = scache.total("prefetch.blocks");
    long remoteBefore = scache.total("read.remote.blocks");
    long locatedHereBefore = scache.total("read.inputs.located.here");
    List<String> viaScache;
    ShufflePlacement placement;
    Set<String> executorHosts = new TreeSet<>();
    try (JavaSparkContext sc = new JavaSparkContext(conf)) {
      sc.sc().addSparkListener(tasks);
      awaitExecutors(sc, 2);
      for (org.apache.spark.SparkExecutorInfo e : sc.sc().statusTracker().getExecutorInfos()) {
        executorHosts.add(e.host());
      }
      viaScache = wordCount(sc);
      placement = ((ScacheShuffleManager) SparkEnv.get().shuffleManager()).placement(0).orElseThrow();
      sc.sc().listenerBus().waitUntilEmpty();
    }
    assertTrue(executorHosts.containsAll(HOSTS), "executors on both hosts: " + executorHosts);
    int lastStage = tasks.hostByStageAndPartition.keySet().stream().max(Integer::compare).orElseThrow();
    Map<Integer, String> reduceHosts = tasks.hostByStageAndPartition.get(lastStage);
    assertEquals(6, reduceHosts.size());
    Set<String> placedHosts = new TreeSet<>();
    for (Map.Entry<Integer, String> t : reduceHosts.entrySet()) {
      String placed = placement.workerOf(t.getKey()).orElseThrow().host();
      placedHosts.add(placed);
      assertEquals(placed, t.getValue(), "reduce " + t.getKey() + " ran on its placed host");
    }
    assertEquals(Set.copyOf(HOSTS), placedHosts, "the master placed reduces on both hosts: " + placement.policy()
        + " " + placement.assignments());
    long local = scache.total("read.local.blocks") - localBefore;
    long prefetched = scache.total("prefetch.blocks") - prefetchedBefore;
    long remote = scache.total("read.remote.blocks") - remoteBefore;
    long locatedHere = scache.total("read.inputs.located.here") - locatedHereBefore;
    System.out.printf("SPARK-PLACEMENT 6 of 6 reduces on their placed host; blocks read locally %d, prefetched %d, "
        + "remotely %d; inputs read without asking the master %d%n", local, prefetched, remote, locatedHere);
    assertTrue(local > 0, "the reduces read their input through their node's worker");
    assertTrue(prefetched > 0, "blocks were prefetched to the reduces' hosts");
    assertEquals(0, remote, "every reduce read its input on its own node");
    assertTrue(locatedHere > 0, "a reduce whose input was prefetched whole named its maps' attempts and read it "
        + "without asking the master");

    try (JavaSparkContext sc = new JavaSparkContext(SparkConfs.base("local[2]", "placement-it-sort"))) {
      assertEquals(wordCount(sc), viaScache, "the same output as Spark's sort shuffle");
    }
  }

  /**
   * One PageRank-like iteration: the links, grouped into 6 partitions and cached, joined with ranks summed through
   * a shuffle of the same partitioner; each task of the join's stage reads a cached partition and a placed reduce.
   */
  private static List<String> iterationOverCachedLinks(JavaSparkContext sc) {
    org.apache.spark.api.java.JavaPairRDD<Integer, Iterable<Integer>> links = sc.parallelize(
        ShuffleJobs.numbers(6_000), 6).mapToPair(i -> new Tuple2<>(i % 600, (i * 31) % 600)).groupByKey(6).cache();
    links.count();
    org.apache.spark.api.java.JavaPairRDD<Integer, Integer> ranks = links
        .flatMapToPair(kv -> {
          List<Tuple2<Integer, Integer>> out = new ArrayList<>();
          kv._2().forEach(to -> out.add(new Tuple2<>(to, 1)));
          return out.iterator();
        }).reduceByKey(Integer::sum, 6);
    List<String> out = new ArrayList<>(links.join(ranks).map(kv -> {
      int n = 0;
      for (Integer ignored : kv._2()._1()) {
        n++;
      }
      return kv._1() + ":" + n + "/" + kv._2()._2();
    }).collect());
    out.sort(null);
    return out;
  }

  @Test
  void taskReadingACachedPartitionAndAPlacedReduce_runsInTheExecutorCachingIt() throws Exception {
    List<String> viaSort;
    try (JavaSparkContext sc = new JavaSparkContext(SparkConfs.base("local[2]", "cached-sort-it"))) {
      viaSort = iterationOverCachedLinks(sc);
    }
    Map<Integer, Map<Integer, String>> localityByStage = new ConcurrentHashMap<>();
    List<String> viaScache;
    try (JavaSparkContext sc = new JavaSparkContext(placedConf("cached-placement-it"))) {
      sc.sc().addSparkListener(new SparkListener() {
        @Override
        public void onTaskEnd(SparkListenerTaskEnd end) {
          localityByStage.computeIfAbsent(end.stageId(), s -> new ConcurrentHashMap<>())
              .put(end.taskInfo().index(), end.taskInfo().taskLocality().toString());
        }
      });
      awaitExecutors(sc, 2);
      viaScache = iterationOverCachedLinks(sc);
      sc.sc().listenerBus().waitUntilEmpty();
    }
    assertEquals(viaSort, viaScache, "the same output as Spark's sort shuffle");
    int lastStage = localityByStage.keySet().stream().max(Integer::compare).orElseThrow();
    Map<Integer, String> levels = localityByStage.get(lastStage);
    assertEquals(6, levels.size());
    assertTrue(levels.values().stream().allMatch("PROCESS_LOCAL"::equals),
        "every task of the join ran in the executor caching its links: " + levels);
  }

  @Test
  void mapsRunMostlyOnOneHost_reducesMoveThereWhenTheMapsAreDone_andRunWhereTheyMoved() throws Exception {
    String busy = HOSTS.get(0);
    SparkConf conf = placedConf("balance-it");
    ResultTasks tasks = new ResultTasks();
    long movedBefore = scache.masterCounter("scache_master_reduces_moved_at_map_end_total");
    List<String> viaScache;
    ShufflePlacement placement;
    try (JavaSparkContext sc = new JavaSparkContext(conf)) {
      sc.sc().addSparkListener(tasks);
      awaitExecutors(sc, 2);
      viaScache = skewedWordCount(sc, busy);
      placement = ((ScacheShuffleManager) SparkEnv.get().shuffleManager()).placement(0).orElseThrow();
      sc.sc().listenerBus().waitUntilEmpty();
    }
    long moved = scache.masterCounter("scache_master_reduces_moved_at_map_end_total") - movedBefore;
    long onBusy = placement.assignments().stream().filter(a -> a.worker().host().equals(busy)).count();
    System.out.printf("SPARK-BALANCE %d reduces moved when the maps were done; %d of 6 on %s%n", moved, onBusy, busy);
    assertTrue(moved > 0, "the host that ran most maps holds most of every reduce's input");
    assertTrue(onBusy > 3, "more than an even share of the reduces on " + busy + ": " + onBusy);
    int lastStage = tasks.hostByStageAndPartition.keySet().stream().max(Integer::compare).orElseThrow();
    for (Map.Entry<Integer, String> t : tasks.hostByStageAndPartition.get(lastStage).entrySet()) {
      assertEquals(placement.workerOf(t.getKey()).orElseThrow().host(), t.getValue(),
          "reduce " + t.getKey() + " ran where it was moved to, or placed");
    }
    try (JavaSparkContext sc = new JavaSparkContext(SparkConfs.base("local[2]", "balance-it-sort"))) {
      assertEquals(skewedWordCount(sc, "none"), viaScache, "the same output as Spark's sort shuffle");
    }
  }

  /** The word count, its map tasks slow except on {@code fast}: that host's executor runs most of them. */
  private static List<String> skewedWordCount(JavaSparkContext sc, String fast) {
    List<String> out = new ArrayList<>(sc.parallelize(ShuffleJobs.numbers(60_000), 16).mapPartitions(it -> {
      if (!SparkEnv.get().blockManager().blockManagerId().host().equals(fast) && !fast.equals("none")) {
        Thread.sleep(3_000);
      }
      return it;
    }).mapToPair(i -> new Tuple2<>("w" + (i * 7919L % 1000), 1L)).reduceByKey(Long::sum, 6)
        .map(kv -> kv._1() + "=" + kv._2()).collect());
    out.sort(null);
    return out;
  }

  @Test
  void sqlShuffleCoalescedByAdaptiveExecution_isPlacedInRunsOfConsecutivePartitions_andReadMostlyOnItsNode()
      throws Exception {
    SparkConf conf = placedConf("ranges-it")
        .set("spark.sql.adaptive.enabled", "true")
        .set("spark.sql.adaptive.coalescePartitions.enabled", "true")
        .set("spark.sql.shuffle.partitions", "40")
        .set("spark.sql.autoBroadcastJoinThreshold", "-1")
        // the test reads the placement after the query; from Spark 4.1 a query removes its shuffles when it ends
        .set("spark.sql.classic.shuffleDependency.fileCleanup.enabled", "false");
    long localBefore = scache.total("read.local.blocks");
    long remoteBefore = scache.total("read.remote.blocks");
    List<String> viaScache;
    ShufflePlacement placement;
    SparkSession session = SparkSession.builder().config(conf).getOrCreate();
    try {
      awaitExecutors(JavaSparkContext.fromSparkContext(session.sparkContext()), 2);
      viaScache = ShuffleJobs.sqlAggregation(session);
      placement = ((ScacheShuffleManager) SparkEnv.get().shuffleManager()).placement(0).orElseThrow();
    } finally {
      session.stop();
    }
    assertEquals("contiguous-ranges", placement.policy());
    for (String host : HOSTS) {
      List<Integer> run = placement.assignments().stream().filter(a -> a.worker().host().equals(host))
          .map(a -> a.reduceId()).sorted().toList();
      assertTrue(!run.isEmpty() && run.get(run.size() - 1) - run.get(0) == run.size() - 1,
          host + "'s partitions are consecutive: " + run);
    }
    long local = scache.total("read.local.blocks") - localBefore;
    long remote = scache.total("read.remote.blocks") - remoteBefore;
    System.out.printf("SPARK-RANGES blocks read locally %d, remotely %d%n", local, remote);
    assertTrue(local > 0 && remote < local, "coalesced ranges read mostly on their own node: " + local + " locally, "
        + remote + " remotely");
    SparkSession sort = SparkSession.builder().config(SparkConfs.base("local[2]", "ranges-it-sort")
        .set("spark.sql.shuffle.partitions", "40")).getOrCreate();
    try {
      assertEquals(ShuffleJobs.sqlAggregation(sort), viaScache, "the same rows as Spark's sort shuffle");
    } finally {
      sort.stop();
    }
  }

  @Test
  void sqlJoinBroadcastOnceItsMapsRan_readsTheLargeSideLocally_andTellsScacheToStopPrefetchingIt() throws Exception {
    SparkConf conf = placedConf("local-read-it")
        .set("spark.sql.adaptive.enabled", "true")
        .set("spark.sql.adaptive.localShuffleReader.enabled", "true")
        .set("spark.sql.shuffle.partitions", "8");
    long before = scache.masterCounter("scache_master_shuffles_read_in_place_total");
    Tuple2<List<String>, String> viaScache;
    SparkSession session = SparkSession.builder().config(conf).getOrCreate();
    try {
      awaitExecutors(JavaSparkContext.fromSparkContext(session.sparkContext()), 2);
      viaScache = ShuffleJobs.sqlJoinBroadcastAtRunTime(session);
    } finally {
      session.stop();
    }
    long inPlace = scache.masterCounter("scache_master_shuffles_read_in_place_total") - before;
    System.out.printf("SPARK-LOCAL-READ %d shuffles read where their maps ran; plan:%n%s%n", inPlace, viaScache._2());
    assertTrue(viaScache._2().contains("BroadcastHashJoin") && viaScache._2().contains("local"),
        "adaptive execution broadcast the small side and read the large one locally:\n" + viaScache._2());
    assertTrue(inPlace >= 1, "the driver told the master that a shuffle is read where its maps ran");
    SparkSession sort = SparkSession.builder().config(SparkConfs.base("local[2]", "local-read-it-sort")
        .set("spark.sql.adaptive.enabled", "true").set("spark.sql.shuffle.partitions", "8")).getOrCreate();
    try {
      assertEquals(ShuffleJobs.sqlJoinBroadcastAtRunTime(sort)._1(), viaScache._1(),
          "the same rows as Spark's sort shuffle");
    } finally {
      sort.stop();
    }
  }

  @Test
  void sqlJoinBroadcastWhileItsLargeSideStillMaps_tellsScacheBeforeTheLargeSidesLastMapsStart() throws Exception {
    SparkConf conf = placedConf("early-local-read-it")
        // the small side's map task runs beside the large side's waves whichever stage Spark submits first
        .set("spark.scheduler.mode", "FAIR")
        .set("spark.sql.adaptive.enabled", "true")
        .set("spark.sql.adaptive.localShuffleReader.enabled", "true")
        .set("spark.sql.shuffle.partitions", "8");
    String counter = "scache_master_shuffles_read_in_place_total";
    long before = scache.masterCounter(counter);
    // the read-in-place count when each task of the large side's stage (its 8 slow maps) started, in start order
    List<Long> toldAtStart = java.util.Collections.synchronizedList(new ArrayList<>());
    Map<Integer, Integer> tasksByStage = new ConcurrentHashMap<>();
    Tuple2<List<String>, String> viaScache;
    SparkSession session = SparkSession.builder().config(conf).getOrCreate();
    try {
      session.sparkContext().addSparkListener(new SparkListener() {
        @Override
        public void onStageSubmitted(org.apache.spark.scheduler.SparkListenerStageSubmitted submitted) {
          tasksByStage.put(submitted.stageInfo().stageId(), submitted.stageInfo().numTasks());
        }

        @Override
        public void onTaskStart(org.apache.spark.scheduler.SparkListenerTaskStart start) {
          if (tasksByStage.getOrDefault(start.stageId(), 0) == 8 && toldAtStart.size() < 8) {
            try {
              toldAtStart.add(scache.masterCounter(counter) - before);
            } catch (Exception e) {
              throw new IllegalStateException(e);
            }
          }
        }
      });
      awaitExecutors(JavaSparkContext.fromSparkContext(session.sparkContext()), 2);
      viaScache = ShuffleJobs.sqlJoinBroadcastWhileTheLargeSideMaps(session, 1_500);
      session.sparkContext().listenerBus().waitUntilEmpty();
    } finally {
      session.stop();
    }
    System.out.printf("SPARK-EARLY-LOCAL-READ shuffles read in place as the large side's maps started: %s%n",
        toldAtStart);
    assertTrue(viaScache._2().contains("BroadcastHashJoin") && viaScache._2().contains("local"),
        "adaptive execution broadcast the small side and read the large one locally:\n" + viaScache._2());
    assertEquals(8, toldAtStart.size(), "the large side ran 8 map tasks: " + toldAtStart);
    // two executor cores, four waves of the large side's maps: its last wave starts long after the small side ended.
    // The broadcast reads the small side in place too, said when its stage is submitted right after the re-plan; so
    // the count is 1 without the large side, 2 once the large side was said at the re-plan
    assertTrue(toldAtStart.get(7) >= 2, "the driver told the master that both sides are read in place when "
        + "adaptive execution re-planned the join, before the large side's last maps started: " + toldAtStart);
    SparkSession sort = SparkSession.builder().config(SparkConfs.base("local[2]", "early-local-read-it-sort")
        .set("spark.sql.adaptive.enabled", "true").set("spark.sql.shuffle.partitions", "8")).getOrCreate();
    try {
      assertEquals(ShuffleJobs.sqlJoinBroadcastWhileTheLargeSideMaps(sort, 0)._1(), viaScache._1(),
          "the same rows as Spark's sort shuffle");
    } finally {
      sort.stop();
    }
  }

  @Test
  void sqlJoinWhoseSmallSideEndsLast_copiesNoneOfTheLargeSide_whileAJoinThatStaysShuffledIsCopied() throws Exception {
    SparkConf conf = placedConf("held-copies-it")
        .set("spark.sql.adaptive.enabled", "true")
        .set("spark.sql.adaptive.localShuffleReader.enabled", "true")
        .set("spark.sql.shuffle.partitions", "8");
    String heldCounter = "scache_master_shuffles_copies_held_total";
    Tuple2<List<String>, String> broadcast;
    Tuple2<List<String>, String> shuffled;
    long copiedOfBroadcast;
    long copiedOfShuffled;
    long heldOfBroadcast;
    long heldOfShuffled;
    SparkSession session = SparkSession.builder().config(conf).getOrCreate();
    try {
      awaitExecutors(JavaSparkContext.fromSparkContext(session.sparkContext()), 2);
      long before = scache.total("prefetch.bytes");
      long heldBefore = scache.masterCounter(heldCounter);
      broadcast = ShuffleJobs.sqlJoinWhoseOtherSideEndsLast(session, 100, 4_000);
      session.sparkContext().listenerBus().waitUntilEmpty();
      copiedOfBroadcast = scache.total("prefetch.bytes") - before;
      heldOfBroadcast = scache.masterCounter(heldCounter) - heldBefore;
      before = scache.total("prefetch.bytes");
      heldBefore = scache.masterCounter(heldCounter);
      shuffled = ShuffleJobs.sqlJoinWhoseOtherSideEndsLast(session, 200_000, 2_000);
      session.sparkContext().listenerBus().waitUntilEmpty();
      copiedOfShuffled = scache.total("prefetch.bytes") - before;
      heldOfShuffled = scache.masterCounter(heldCounter) - heldBefore;
    } finally {
      session.stop();
    }
    System.out.printf("SPARK-HELD-COPIES bytes copied: broadcast join %d, sort-merge join %d; shuffles held %d, %d%n",
        copiedOfBroadcast, copiedOfShuffled, heldOfBroadcast, heldOfShuffled);
    assertTrue(broadcast._2().contains("BroadcastHashJoin") && broadcast._2().contains("local"),
        "adaptive execution broadcast the small side and read the large one locally:\n" + broadcast._2());
    assertTrue(shuffled._2().contains("SortMergeJoin"), "the join of two large sides stayed:\n" + shuffled._2());
    // the large side's 8 maps end long before the small side's one: without the hold its blocks were copied by then
    assertTrue(copiedOfBroadcast < 64 << 10, "the large side's blocks were not copied to its reduces' hosts, "
        + "as adaptive execution read them where their maps ran: " + copiedOfBroadcast + " bytes copied");
    assertTrue(copiedOfShuffled > 256 << 10, "a join that stayed a sort-merge join had its blocks copied once the "
        + "hold was let go: " + copiedOfShuffled + " bytes copied");
    assertTrue(heldOfBroadcast >= 1 && heldOfShuffled >= 1, "the large side of each join was held while the other "
        + "could still be broadcast: " + heldOfBroadcast + ", " + heldOfShuffled);
    SparkSession sort = SparkSession.builder().config(SparkConfs.base("local[2]", "held-copies-it-sort")
        .set("spark.sql.adaptive.enabled", "true").set("spark.sql.shuffle.partitions", "8")).getOrCreate();
    try {
      assertEquals(ShuffleJobs.sqlJoinWhoseOtherSideEndsLast(sort, 100, 0)._1(), broadcast._1(),
          "the same rows as Spark's sort shuffle");
      assertEquals(ShuffleJobs.sqlJoinWhoseOtherSideEndsLast(sort, 200_000, 0)._1(), shuffled._1(),
          "the same rows as Spark's sort shuffle");
    } finally {
      sort.stop();
    }
  }

  @Test
  void executorLostDuringTheMapStage_theJobFinishesRight_withNoStageSubmittedAgain() throws Exception {
    SparkConf conf = SparkConfs.scache(SparkConfs.base(spark.masterUrl(), "executor-loss-it"), scache.masterAddress())
        .set("spark.scache.worker.rpc.port", Integer.toString(workerPort))
        .set("spark.cores.max", "2");
    MapTasks maps = new MapTasks();
    List<String> viaScache;
    try (JavaSparkContext sc = new JavaSparkContext(conf)) {
      sc.sc().addSparkListener(maps);
      awaitExecutors(sc, 2);
      Thread killer = new Thread(() -> {
        org.scache.common.testing.Await.until(() -> maps.finishedOn.size() >= 3, java.time.Duration.ofSeconds(60),
            "three map tasks finished");
        String victim = maps.finishedOn.get(0);
        System.out.println("EXECUTOR-LOSS killing executor " + victim + " after " + maps.finishedOn.size()
            + " map tasks finished");
        sc.sc().killExecutor(victim);
      });
      killer.start();
      viaScache = new ArrayList<>(sc.parallelize(ShuffleJobs.numbers(16_000), 8).mapPartitions(it -> {
        Thread.sleep(700);
        return it;
      }).mapToPair(i -> new Tuple2<>(i % 37, 1L)).reduceByKey(Long::sum, 4).map(kv -> kv._1() + "=" + kv._2())
          .collect());
      killer.join();
      sc.sc().listenerBus().waitUntilEmpty();
    }
    viaScache.sort(null);
    List<String> expected = new ArrayList<>();
    for (int k = 0; k < 37; k++) {
      expected.add(k + "=" + (16_000 / 37 + (k < 16_000 % 37 ? 1 : 0)));
    }
    expected.sort(null);
    assertEquals(expected, viaScache);
    assertEquals(Set.of(0), maps.stageAttempts, "no stage was submitted again: no reduce lost its input");
    System.out.printf("EXECUTOR-LOSS %d map task launches for 8 maps%n", maps.launches);
  }

  /** Executors of finished map tasks, in order, and the attempt numbers of submitted stages. */
  private static final class MapTasks extends SparkListener {
    final List<String> finishedOn = new java.util.concurrent.CopyOnWriteArrayList<>();
    final Set<Integer> stageAttempts = ConcurrentHashMap.newKeySet();
    volatile int launches;

    @Override
    public void onStageSubmitted(org.apache.spark.scheduler.SparkListenerStageSubmitted submitted) {
      stageAttempts.add(submitted.stageInfo().attemptNumber());
    }

    @Override
    public void onTaskStart(org.apache.spark.scheduler.SparkListenerTaskStart start) {
      if (start.stageId() == 0) {
        launches++;
      }
    }

    @Override
    public void onTaskEnd(SparkListenerTaskEnd end) {
      if (end.stageId() == 0 && end.taskInfo().successful()) {
        finishedOn.add(end.taskInfo().executorId());
      }
    }
  }

  static void awaitExecutors(JavaSparkContext sc, int n) {
    org.scache.common.testing.Await.until(() -> sc.sc().statusTracker().getExecutorInfos().length >= n + 1,
        java.time.Duration.ofSeconds(60), "executors registered");
  }
}
