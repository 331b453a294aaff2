package org.scache.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.FetchFailed;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerStageSubmitted;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.util.Utils;
import org.junit.jupiter.api.Test;
import scala.Tuple2;

/**
 * A worker that dies after a shuffle's maps have put their output into it, and is restarted empty: the
 * next job reading that shuffle finds none of its blocks, each read fails naming its map, Spark runs the
 * maps again (a second attempt of their stage), on Spark's sort shuffle (a map run again does not go through SCache),
 * and the job's output is the sort shuffle's.
 */
class WorkerRestartIT {
  /** Every key's values, sorted, from a groupByKey the caller can read more than once. */
  private static JavaPairRDD<Integer, Iterable<Integer>> grouped(JavaSparkContext sc) {
    return sc.parallelize(ShuffleJobs.numbers(20_000), 6).mapToPair(i -> new Tuple2<>(i % 101, i)).groupByKey(5);
  }

  private static List<String> lines(JavaPairRDD<Integer, Iterable<Integer>> grouped) {
    return ShuffleJobs.groupedNumbers(grouped);
  }

  @Test
  void workerRestartedEmptyBetweenTwoReadsOfAShuffle_sparkRunsItsMapsAgainOnTheSortShuffle_sameOutput()
      throws Exception {
    List<String> viaSort;
    try (JavaSparkContext sc = new JavaSparkContext(SparkConfs.base("local[2]", "sort-worker-restart-it"))) {
      viaSort = lines(grouped(sc));
    }
    try (ScacheServices scache = ScacheServices.start(List.of(Utils.localHostName()), 0, 256L << 20)) {
      AtomicInteger fetchFailures = new AtomicInteger();
      AtomicInteger mapStagesRunAgain = new AtomicInteger();
      List<String> first;
      List<String> second;
      long putByFirstWorker;
      try (JavaSparkContext sc = new JavaSparkContext(SparkConfs.scache(
          SparkConfs.base("local-cluster[2,1,1024]", "scache-worker-restart-it"), scache.masterAddress())
          .set("spark.scache.client.worker.address", "127.0.0.1:" + scache.workerPort(0)))) {
        sc.sc().addSparkListener(new SparkListener() {
          @Override
          public void onStageSubmitted(SparkListenerStageSubmitted submitted) {
            if (submitted.stageInfo().shuffleDepId().isDefined() && submitted.stageInfo().attemptNumber() > 0) {
              mapStagesRunAgain.incrementAndGet();
            }
          }

          @Override
          public void onTaskEnd(SparkListenerTaskEnd end) {
            if (end.reason() instanceof FetchFailed) {
              fetchFailures.incrementAndGet();
            }
          }
        });
        JavaPairRDD<Integer, Iterable<Integer>> grouped = grouped(sc);
        first = lines(grouped);
        putByFirstWorker = scache.stat(0, "put.blocks");
        scache.restartWorker(0);
        second = lines(grouped);
        sc.sc().listenerBus().waitUntilEmpty();
      }
      assertEquals(viaSort, first, "the first read through SCache");
      assertTrue(putByFirstWorker > 0, "the maps put their output into the first worker");
      assertTrue(fetchFailures.get() > 0, "a read of the restarted worker failed as a fetch failure");
      assertEquals(1, mapStagesRunAgain.get(), "the map stage ran again, once");
      assertEquals(0, scache.stat(0, "put.blocks"), "the maps' second attempts wrote as the sort shuffle");
      assertEquals(viaSort, second, "the read after the restart, with the maps run again");
      assertEquals(101, second.size());
    }
  }
}
