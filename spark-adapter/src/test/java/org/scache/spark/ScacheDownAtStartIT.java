package org.scache.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import java.util.List;
import org.apache.spark.SparkEnv;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Test;

/** With no SCache master to answer when the application starts, the whole application uses Spark's sort shuffle. */
class ScacheDownAtStartIT {

  @Test
  void masterUnreachableAtStart_everyShuffleUsesSortShuffle_withTheSameOutput() throws Exception {
    int closedPort;
    try (ServerSocket s = new ServerSocket(0)) {
      closedPort = s.getLocalPort();
    }
    List<String> fallback;
    long start = System.nanoTime();
    try (JavaSparkContext sc = new JavaSparkContext(SparkConfs.scache(SparkConfs.base("local[2]", "scache-down"),
        "127.0.0.1:" + closedPort).set("spark.scache.start.check.timeout", "2s"))) {
      assertInstanceOf(ScacheShuffleManager.class, SparkEnv.get().shuffleManager());
      assertFalse(((ScacheShuffleManager) SparkEnv.get().shuffleManager()).isActive());
      fallback = ShuffleJobs.reduceByKey(sc);
      assertEquals(ShuffleJobs.sortByKey(sc).size(), 30_000);
    }
    assertTrue(System.nanoTime() - start < 60_000_000_000L, "the start did not wait long for the master");
    try (JavaSparkContext sc = new JavaSparkContext(SparkConfs.base("local[2]", "sort-shuffle"))) {
      assertEquals(ShuffleJobs.reduceByKey(sc), fallback);
    }
  }
}
