package org.scache.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.SparkEnv;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.util.Utils;
import org.junit.jupiter.api.Test;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import scala.Tuple2;

/**
 * A shuffle the master refuses to register (here: its state would pass the application's share of the master's
 * memory) runs on Spark's sort shuffle, and the job gives the sort shuffle's output; a shuffle it takes, in the
 * same application, still goes through SCache.
 */
class RefusedShuffleSparkIT {
  /** 8 KiB of shuffle state on the master, 4 KiB for one application: a 4 × 20 shuffle fits, a 4 × 100 does not. */
  private static final ScacheConf SMALL_MASTER = ScacheConf.empty()
      .with(ScacheOptions.MASTER_SHUFFLE_STATE_MAX.key(), "8192");

  private static List<String> grouped(JavaSparkContext sc, int reduces) {
    List<Integer> numbers = new ArrayList<>();
    for (int i = 0; i < 10_000; i++) {
      numbers.add(i);
    }
    return ShuffleJobs.groupedNumbers(sc.parallelize(numbers, 4).mapToPair(i -> new Tuple2<>(i % 97, i))
        .groupByKey(reduces));
  }

  @Test
  void shuffleTheMasterRefuses_runsOnTheSortShuffle_andTheJobGivesItsOutput() throws Exception {
    List<String> sortNarrow;
    List<String> sortWide;
    try (JavaSparkContext sc = new JavaSparkContext(SparkConfs.base("local[2]", "refused-sort-it"))) {
      sortNarrow = grouped(sc, 20);
      sortWide = grouped(sc, 100);
    }
    try (ScacheServices scache = ScacheServices.start(List.of(Utils.localHostName()), 0, 64L << 20,
        ScacheConf.empty(), SMALL_MASTER);
        JavaSparkContext sc = new JavaSparkContext(SparkConfs.scache(
            SparkConfs.base("local-cluster[2,1,1024]", "refused-scache-it"), scache.masterAddress())
            .set("spark.scache.client.worker.address", "127.0.0.1:" + scache.workerPort(0)))) {
      assertTrue(((ScacheShuffleManager) SparkEnv.get().shuffleManager()).isActive(), "SCache is in use");
      assertEquals(sortWide, grouped(sc, 100), "4 maps × 100 reduces, refused by the master");
      assertEquals(0, scache.total("put.blocks"), "the sort shuffle took the refused shuffle's blocks");
      assertEquals(sortNarrow, grouped(sc, 20), "4 maps × 20 reduces");
      assertEquals(80, scache.total("put.blocks"), "SCache took the shuffle the master registered");
    }
  }
}
