package org.scache.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkEnv;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.util.Utils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import scala.Tuple2;

/**
 * RDD and SQL shuffles of every kind through SCache on a local cluster of two executor processes,
 * each output equal to the same job's on Spark's sort shuffle: groupByKey, reduceByKey, sortByKey
 * (range partitioner, sampled), a join, a map task failing once, a SQL aggregation with adaptive
 * coalescing and a SQL join with an adaptive skew split; and the RDD shuffles again with Kryo as the
 * application's serializer, which also carries the range sampler's results to the driver.
 */
class SparkShuffleIT {
  private static ScacheServices scache;

  @BeforeAll
  static void startScache() throws Exception {
    // the executors of a local cluster run on this machine's host name, which the worker advertises
    scache = ScacheServices.start(List.of(Utils.localHostName()), 0, 256L << 20);
  }

  @AfterAll
  static void stopScache() {
    if (scache != null) {
      scache.close();
    }
  }

  private static Map<String, Object> runAll(SparkConf conf, boolean throughScache) {
    Map<String, Object> out = new LinkedHashMap<>();
    SparkSession spark = SparkSession.builder().config(ShuffleJobs.adaptive(conf)).getOrCreate();
    try (JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext())) {
      if (throughScache) {
        assertInstanceOf(ScacheShuffleManager.class, SparkEnv.get().shuffleManager());
        assertTrue(((ScacheShuffleManager) SparkEnv.get().shuffleManager()).isActive(), "SCache is in use");
      }
      out.put("groupByKey", ShuffleJobs.groupByKey(sc));
      out.put("reduceByKey", ShuffleJobs.reduceByKey(sc));
      out.put("sortByKey", ShuffleJobs.sortByKey(sc));
      out.put("join", ShuffleJobs.join(sc));
      out.put("mapFailingOnce", ShuffleJobs.mapFailingOnce(sc));
      out.put("sqlAggregation", ShuffleJobs.sqlAggregation(spark));
      Tuple2<List<String>, String> skew = ShuffleJobs.sqlSkewJoin(spark);
      out.put("sqlSkewJoin", skew._1());
      assertTrue(skew._2().contains("skew=true"), "adaptive execution split the skewed partition:\n" + skew._2());
    } finally {
      spark.stop();
    }
    return out;
  }

  @Test
  void everyShuffleForm_givesTheSameOutputAsSparksSortShuffle() {
    long before = scache.total("put.blocks");
    Map<String, Object> viaScache = runAll(SparkConfs.scache(
        SparkConfs.base("local-cluster[2,1,1024]", "scache-shuffle-it"), scache.masterAddress())
        .set("spark.scache.client.worker.address", "127.0.0.1:" + scache.workerPort(0)), true);
    long putThroughScache = scache.total("put.blocks") - before;
    Map<String, Object> viaSort = runAll(SparkConfs.base("local[2,4]", "sort-shuffle-it"), false);
    for (String job : viaSort.keySet()) {
      assertEquals(viaSort.get(job), viaScache.get(job), job + " differs between the shuffles");
      assertTrue(!((List<?>) viaSort.get(job)).isEmpty(), job + " has output");
    }
    assertTrue(putThroughScache > 0, "map output went into SCache");
    System.out.printf("SPARK-SHUFFLE %d blocks put, %d read locally, %d read remotely, %d prefetched%n",
        putThroughScache, scache.total("read.local.blocks"), scache.total("read.remote.blocks"),
        scache.total("prefetch.blocks"));
  }

  @Test
  void aMapTaskFailingMidway_givesTheSameOutputAsSparksSortShuffle() throws Exception {
    List<String> viaScache;
    SparkConf conf = SparkConfs.scache(SparkConfs.base("local-cluster[2,1,1024]", "scache-mid-map-failure-it"),
        scache.masterAddress())
        .set("spark.scache.client.worker.address", "127.0.0.1:" + scache.workerPort(0));
    AtomicInteger failedMaps = new AtomicInteger();
    try (JavaSparkContext sc = new JavaSparkContext(conf)) {
      sc.sc().addSparkListener(new SparkListener() {
        @Override
        public void onTaskEnd(SparkListenerTaskEnd end) {
          if (end.stageId() == 0 && !end.taskInfo().successful()) {
            failedMaps.incrementAndGet();
          }
        }
      });
      viaScache = ShuffleJobs.groupByKeyFailingMidMap(sc);
      sc.sc().listenerBus().waitUntilEmpty();
    }
    List<String> viaSort;
    try (JavaSparkContext sc = new JavaSparkContext(SparkConfs.base("local[2,4]", "sort-mid-map-failure-it"))) {
      viaSort = ShuffleJobs.groupByKeyFailingMidMap(sc);
    }
    assertEquals(1, failedMaps.get(), "map 0's first attempt failed midway, the others did not");
    assertEquals(viaSort, viaScache, "the same groups through SCache");
    assertEquals(89, viaSort.size());
  }

  @Test
  void executors_openTheirWorkersSharedMemoryBeforeTheirFirstTask_andTheJobGivesTheSortShufflesOutput()
      throws Exception {
    long openedBefore = scache.total("shm.opened");
    SparkConf conf = SparkConfs.scache(SparkConfs.base("local-cluster[2,1,1024]", "scache-executor-prepare-it"),
        scache.masterAddress())
        .set("spark.scache.client.worker.address", "127.0.0.1:" + scache.workerPort(0));
    List<String> viaScache;
    try (JavaSparkContext sc = new JavaSparkContext(conf)) {
      long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
      while (scache.total("shm.opened") - openedBefore < 2 && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      // no job has run: what opened the worker's memory is each executor, ahead of its first task
      assertEquals(0, sc.sc().statusTracker().getActiveJobIds().length + sc.statusTracker().getJobIdsForGroup(null)
          .length, "no job ran yet");
      assertEquals(2, scache.total("shm.opened") - openedBefore, "each of the two executors opened it once");
      viaScache = ShuffleJobs.groupByKey(sc);
    }
    List<String> viaSort;
    try (JavaSparkContext sc = new JavaSparkContext(SparkConfs.base("local[2,4]", "sort-executor-prepare-it"))) {
      viaSort = ShuffleJobs.groupByKey(sc);
    }
    assertEquals(viaSort, viaScache, "the same groups through SCache");
  }

  /** The RDD shuffles' outputs, and under "shuffleBytesWritten" the bytes the map tasks reported writing. */
  private static Map<String, Object> runRddJobs(SparkConf conf) throws Exception {
    Map<String, Object> out = new LinkedHashMap<>();
    java.util.concurrent.atomic.AtomicLong written = new java.util.concurrent.atomic.AtomicLong();
    try (JavaSparkContext sc = new JavaSparkContext(conf)) {
      sc.sc().addSparkListener(new SparkListener() {
        @Override
        public void onTaskEnd(SparkListenerTaskEnd end) {
          if (end.taskMetrics() != null) {
            written.addAndGet(end.taskMetrics().shuffleWriteMetrics().bytesWritten());
          }
        }
      });
      out.put("groupByKey", ShuffleJobs.groupByKey(sc));
      out.put("sortByKey", ShuffleJobs.sortByKey(sc));
      out.put("join", ShuffleJobs.join(sc));
      sc.sc().listenerBus().waitUntilEmpty();
    }
    out.put("shuffleBytesWritten", written.get());
    return out;
  }

  @Test
  void withKryo_rangeSampledAndHashedShuffles_giveTheSameOutputAsSparksSortShuffle() throws Exception {
    String kryo = "org.apache.spark.serializer.KryoSerializer";
    Map<String, Object> viaScache = runRddJobs(SparkConfs.scache(
        SparkConfs.base("local-cluster[2,1,1024]", "scache-kryo-it"), scache.masterAddress())
        .set("spark.scache.client.worker.address", "127.0.0.1:" + scache.workerPort(0))
        .set("spark.serializer", kryo)
        .set("spark.scache.sampling.enabled", "true"));
    Map<String, Object> viaSort = runRddJobs(SparkConfs.base("local[2]", "sort-kryo-it").set("spark.serializer", kryo));
    long written = (Long) viaScache.remove("shuffleBytesWritten");
    assertTrue(written > 0, "map tasks report the bytes they wrote, as Spark's writers do: " + written);
    viaSort.remove("shuffleBytesWritten");
    assertEquals(viaSort, viaScache, "the shuffles differ with Kryo");
  }
}
