package org.scache.benchmarks.spark;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.storage.StorageLevel;
import scala.Tuple2;

/**
 * The benchmark's programs of many shuffles, as an application author writes them: a chain of tiny stages (what a
 * stage costs beyond its work), a join followed by an aggregation, and PageRank's iterations over a cached graph.
 * Each returns a digest of its output that the benchmark compares across shuffles.
 */
final class StageJobs {
  /** Shuffles of the chain of tiny stages. */
  static final int CHAIN_SHUFFLES = 20;
  /** Records of each map task of the chain: few enough that a stage's fixed cost is most of its time. */
  private static final int CHAIN_RECORDS_PER_MAP = 1000;
  /** PageRank's iterations, as in Spark's own example. */
  static final int PAGERANK_ITERATIONS = 5;
  private static final int LINKS_PER_PAGE = 10;
  /** Bytes a page of the generated graph takes in the benchmark's size: its links as two longs each. */
  private static final int BYTES_PER_PAGE = LINKS_PER_PAGE * 16;
  private static final int JOIN_VALUE_BYTES = 48;

  private StageJobs() {}

  /**
   * {@value #CHAIN_SHUFFLES} shuffles one after the other, each of {@code maps} tasks of
   * {@value #CHAIN_RECORDS_PER_MAP} records re-keyed and summed by key into {@code reduces} partitions: the
   * stages do almost no work, so the job's time is what a stage and a task cost.
   */
  static String chain(JavaSparkContext sc, int maps, int reduces) {
    List<Integer> seeds = new ArrayList<>();
    for (int m = 0; m < maps; m++) {
      seeds.add(m);
    }
    JavaPairRDD<Long, Long> rdd = sc.parallelize(seeds, maps).flatMapToPair(m -> {
      List<Tuple2<Long, Long>> out = new ArrayList<>(CHAIN_RECORDS_PER_MAP);
      for (int i = 0; i < CHAIN_RECORDS_PER_MAP; i++) {
        out.add(new Tuple2<>((long) m * CHAIN_RECORDS_PER_MAP + i, 1L));
      }
      return out.iterator();
    });
    for (int s = 0; s < CHAIN_SHUFFLES; s++) {
      long salt = s;
      rdd = rdd.mapToPair(kv -> new Tuple2<>((kv._1() * 31 + salt) % 4099, kv._2())).reduceByKey(Long::sum, reduces);
    }
    Tuple2<Long, Long> sums = rdd.map(kv -> new Tuple2<>(kv._1() * 7919 + kv._2(), kv._2()))
        .fold(new Tuple2<>(0L, 0L), (a, b) -> new Tuple2<>(a._1() + b._1(), a._2() + b._2()));
    return "keys-checksum=" + sums._1() + " records=" + sums._2();
  }

  /**
   * Two inputs of {@code bytes} together, joined by key into {@code reduces} partitions (two shuffles), then
   * the joined pairs counted and summed by a coarser key (a third).
   */
  static String joinThenAggregate(JavaSparkContext sc, long bytes, int maps, int reduces) {
    long keySpace = Math.max(1, bytes / 2 / (8 + JOIN_VALUE_BYTES) / 2);
    JavaPairRDD<Long, byte[]> left = BenchJobs.generate(sc, bytes / 2, maps, keySpace, JOIN_VALUE_BYTES);
    JavaPairRDD<Long, Long> right = BenchJobs.generate(sc, bytes / 2, maps, keySpace, JOIN_VALUE_BYTES)
        .mapToPair(kv -> new Tuple2<>(kv._1() + 1_000_000_007L * (kv._2()[0] & 1), (long) kv._2()[1]))
        .mapToPair(kv -> new Tuple2<>(kv._1() % keySpace, kv._2()));
    Tuple2<Long, Long> sums = left.mapValues(v -> (long) v[0]).join(right, reduces)
        .mapToPair(kv -> new Tuple2<>(kv._1() % 1000, kv._2()._1() * 131 + kv._2()._2()))
        .reduceByKey(Long::sum, reduces)
        .map(kv -> new Tuple2<>(kv._1() * 7919 + kv._2(), 1L))
        .fold(new Tuple2<>(0L, 0L), (a, b) -> new Tuple2<>(a._1() + b._1(), a._2() + b._2()));
    return "checksum=" + sums._1() + " groups=" + sums._2();
  }

  /**
   * Spark's PageRank example over a generated graph of {@code bytes} of links ({@value #LINKS_PER_PAGE} a page,
   * grouped and cached), {@value #PAGERANK_ITERATIONS} iterations of a join and a sum by page into
   * {@code reduces} partitions: eleven shuffles, each iteration's map stage reading the cached links.
   */
  static String pageRank(JavaSparkContext sc, long bytes, int maps, int reduces) {
    long pages = Math.max(LINKS_PER_PAGE + 1, bytes / BYTES_PER_PAGE);
    List<Integer> seeds = new ArrayList<>();
    for (int m = 0; m < maps; m++) {
      seeds.add(m);
    }
    JavaPairRDD<Long, Iterable<Long>> links = sc.parallelize(seeds, maps).flatMapToPair(m -> {
      SplittableRandom random = new SplittableRandom(0x9a6e_0000L + m);
      List<Tuple2<Long, Long>> out = new ArrayList<>();
      for (long page = m; page < pages; page += maps) {
        for (int l = 0; l < LINKS_PER_PAGE; l++) {
          out.add(new Tuple2<>(page, random.nextLong(pages)));
        }
      }
      return out.iterator();
    }).distinct(reduces).groupByKey(reduces).persist(StorageLevel.MEMORY_ONLY());
    JavaPairRDD<Long, Double> ranks = links.mapValues(v -> 1.0);
    for (int i = 0; i < PAGERANK_ITERATIONS; i++) {
      JavaPairRDD<Long, Double> contributions = links.join(ranks).values().flatMapToPair(linksAndRank -> {
        List<Tuple2<Long, Double>> out = new ArrayList<>();
        int n = 0;
        for (Long ignored : linksAndRank._1()) {
          n++;
        }
        for (Long to : linksAndRank._1()) {
          out.add(new Tuple2<>(to, linksAndRank._2() / n));
        }
        return out.iterator();
      });
      ranks = contributions.reduceByKey(Double::sum, reduces).mapValues(sum -> 0.15 + 0.85 * sum);
    }
    // rounded, so that the order in which a sum's terms arrived does not change the digest
    Tuple2<Long, Double> total = ranks.map(kv -> new Tuple2<>(1L, kv._2()))
        .fold(new Tuple2<>(0L, 0.0), (a, b) -> new Tuple2<>(a._1() + b._1(), a._2() + b._2()));
    links.unpersist(false);
    return String.format(Locale.ROOT, "pages=%d rank-sum=%.4f", total._1(), total._2());
  }
}
