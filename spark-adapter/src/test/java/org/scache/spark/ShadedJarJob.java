package org.scache.spark;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkEnv;
import org.apache.spark.api.java.JavaSparkContext;
import scala.Tuple2;

/**
 * A Spark application run in a JVM of its own on Spark's jars and the adapter's shaded jar only, as a
 * user would run one: it prints its word count and whether it shuffled through SCache.
 */
public final class ShadedJarJob {
  private ShadedJarJob() {}

  public static void main(String[] args) {
    SparkConf conf = new SparkConf().setMaster("local[2]").setAppName("shaded-jar-job")
        .set("spark.ui.enabled", "false")
        .set("spark.shuffle.manager", "org.scache.spark.ScacheShuffleManager")
        .set("spark.plugins", "org.scache.spark.ScachePlacementPlugin")
        .set("spark.scache.client.master.address", args[0])
        .set("spark.scache.client.worker.address", args[1]);
    try (JavaSparkContext sc = new JavaSparkContext(conf)) {
      List<Integer> numbers = new ArrayList<>();
      for (int i = 0; i < 20_000; i++) {
        numbers.add(i);
      }
      List<String> out = new ArrayList<>(sc.parallelize(numbers, 4).mapToPair(i -> new Tuple2<>(i % 13, 1L))
          .reduceByKey(Long::sum, 3).map(kv -> kv._1() + "=" + kv._2()).collect());
      out.sort(null);
      System.out.println("SHUFFLE-MANAGER " + SparkEnv.get().shuffleManager().getClass().getName() + " active="
          + ((ScacheShuffleManager) SparkEnv.get().shuffleManager()).isActive());
      System.out.println("OUTPUT " + String.join(",", out));
    }
  }
}
