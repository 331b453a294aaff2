package org.scache.spark;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import scala.Tuple2;

/**
 * The jobs the Spark tests run on both shuffles. Each answers its output as lines: in Spark's order
 * where Spark defines one (a sort), sorted where Spark leaves the order open (so outputs compare as
 * multisets).
 */
final class ShuffleJobs {
  private ShuffleJobs() {}

  static List<Integer> numbers(int n) {
    return IntStream.range(0, n).boxed().collect(Collectors.toList());
  }

  /** groupByKey: every key's values, sorted. */
  static List<String> groupByKey(JavaSparkContext sc) {
    return sorted(sc.parallelize(numbers(20_000), 6).mapToPair(i -> new Tuple2<>(i % 101, i)).groupByKey(5)
        .map(kv -> {
          List<Integer> values = new ArrayList<>();
          kv._2().forEach(values::add);
          Collections.sort(values);
          return kv._1() + "=" + values;
        }).collect());
  }

  /** reduceByKey, combined on the map side. */
  static List<String> reduceByKey(JavaSparkContext sc) {
    return sorted(sc.parallelize(numbers(50_000), 6).mapToPair(i -> new Tuple2<>(i % 997, 1L + i % 7))
        .reduceByKey(Long::sum, 7).map(kv -> kv._1() + "=" + kv._2()).collect());
  }

  /** sortByKey with a range partitioner: the output's order is Spark's. */
  static List<String> sortByKey(JavaSparkContext sc) {
    Random random = new Random(42);
    List<Long> keys = new ArrayList<>();
    for (int i = 0; i < 30_000; i++) {
      keys.add(random.nextLong() % 1_000_000);
    }
    return sc.parallelize(keys, 6).mapToPair(k -> new Tuple2<>(k, "v" + Math.abs(k % 13))).sortByKey(true, 5)
        .map(kv -> kv._1() + ":" + kv._2()).collect();
  }

  /** A join of two shuffled inputs. */
  static List<String> join(JavaSparkContext sc) {
    JavaPairRDD<Integer, String> a = sc.parallelize(numbers(3_000), 4).mapToPair(i -> new Tuple2<>(i % 50, "a" + i));
    JavaPairRDD<Integer, String> b = sc.parallelize(numbers(2_000), 3).mapToPair(i -> new Tuple2<>(i % 70, "b" + i));
    return sorted(a.join(b, 6).map(kv -> kv._1() + ":" + kv._2()._1() + "," + kv._2()._2()).collect());
  }

  /** A word count whose first map task fails on its first attempt. */
  static List<String> mapFailingOnce(JavaSparkContext sc) {
    JavaRDD<Integer> input = sc.parallelize(numbers(10_000), 4).mapPartitionsWithIndex((index, it) -> {
      if (index == 0 && TaskContext.get().attemptNumber() == 0 && TaskContext.get().stageAttemptNumber() == 0) {
        throw new IllegalStateException("map task 0 fails on its first attempt");
      }
      return it;
    }, false);
    return sorted(input.mapToPair(i -> new Tuple2<>("w" + i % 31, 1)).reduceByKey(Integer::sum, 3)
        .map(kv -> kv._1() + "=" + kv._2()).collect());
  }

  /**
   * A groupByKey whose first map task fails on its first attempt after 20,000 of its 30,000 records, with some of
   * its partitions' output already written.
   */
  static List<String> groupByKeyFailingMidMap(JavaSparkContext sc) {
    JavaRDD<Integer> input = sc.parallelize(numbers(120_000), 4).mapPartitionsWithIndex((index, it) -> {
      if (index != 0 || TaskContext.get().attemptNumber() != 0 || TaskContext.get().stageAttemptNumber() != 0) {
        return it;
      }
      return new java.util.Iterator<Integer>() {
        private int given;

        @Override
        public boolean hasNext() {
          return it.hasNext();
        }

        @Override
        public Integer next() {
          if (++given > 20_000) {
            throw new IllegalStateException("map task 0 fails midway on its first attempt");
          }
          return it.next();
        }
      };
    }, false);
    return groups(input.mapToPair(i -> new Tuple2<>(i % 89, value(i))).groupByKey(5));
  }

  /** A value that compresses about as little as a random one. */
  private static String value(int i) {
    return "v" + i + "-" + Long.toHexString(i * 0x9E3779B97F4A7C15L);
  }

  /** Every key's values, sorted. */
  private static List<String> groups(JavaPairRDD<Integer, Iterable<String>> grouped) {
    return sorted(grouped.map(kv -> {
      List<String> values = new ArrayList<>();
      kv._2().forEach(values::add);
      Collections.sort(values);
      return kv._1() + "=" + values;
    }).collect());
  }

  /** A Spark SQL aggregation; with adaptive execution its small partitions are coalesced. */
  static List<String> sqlAggregation(SparkSession spark) {
    Dataset<Row> out = spark.range(0, 60_000).selectExpr("id % 300 AS k", "id AS v").groupBy("k")
        .agg(functions.sum("v").as("s"), functions.count("v").as("c"));
    return sorted(out.collectAsList().stream().map(Row::toString).collect(Collectors.toList()));
  }

  /** A Spark SQL sort-merge join with one skewed key; returns the rows and the final plan. */
  static Tuple2<List<String>, String> sqlSkewJoin(SparkSession spark) {
    // 80 % of the left rows have key 0, each with 64 bytes no codec shrinks: that partition is skewed
    Dataset<Row> left = spark.range(0, 40_000).selectExpr("CASE WHEN id % 10 < 8 THEN 0 ELSE id % 100 END AS k",
        "sha2(CAST(id AS STRING), 256) AS payload");
    Dataset<Row> right = spark.range(0, 100).selectExpr("id AS k", "id * 10 AS rv");
    Dataset<Row> joined = left.join(right, "k").groupBy("k").agg(functions.count("payload").as("n"),
        functions.max("payload").as("m"), functions.sum("rv").as("s"));
    List<String> rows = sorted(joined.collectAsList().stream().map(Row::toString).collect(Collectors.toList()));
    return new Tuple2<>(rows, joined.queryExecution().executedPlan().toString());
  }

  /**
   * A Spark SQL join of a large and a small table, planned as a sort-merge join, which adaptive execution turns into a
   * broadcast join once both sides' maps ran; the large side is then read map by map where its maps ran (its local
   * shuffle read). Returns the rows and the final plan.
   */
  static Tuple2<List<String>, String> sqlJoinBroadcastAtRunTime(SparkSession spark) {
    spark.conf().set("spark.sql.autoBroadcastJoinThreshold", "-1");
    spark.conf().set("spark.sql.adaptive.autoBroadcastJoinThreshold", "1m");
    Dataset<Row> large = spark.range(0, 120_000).selectExpr("id % 500 AS k", "id AS v");
    Dataset<Row> small = spark.range(0, 100).selectExpr("id AS k", "id * 10 AS w");
    Dataset<Row> joined = large.join(small, "k").selectExpr("v * w AS p")
        .agg(functions.count("p").as("n"), functions.sum("p").as("s"), functions.max("p").as("m"));
    List<String> rows = sorted(joined.collectAsList().stream().map(Row::toString).collect(Collectors.toList()));
    return new Tuple2<>(rows, joined.queryExecution().executedPlan().toString());
  }

  /**
   * As {@link #sqlJoinBroadcastAtRunTime}, the large side's 8 map tasks each waiting {@code mapMillis} first: adaptive
   * execution turns the join into a broadcast join when the small side's map is done, while the large side's maps
   * still run.
   */
  static Tuple2<List<String>, String> sqlJoinBroadcastWhileTheLargeSideMaps(SparkSession spark, long mapMillis) {
    spark.conf().set("spark.sql.autoBroadcastJoinThreshold", "-1");
    spark.conf().set("spark.sql.adaptive.autoBroadcastJoinThreshold", "1m");
    spark.udf().register("slowly", (org.apache.spark.sql.api.java.UDF1<Long, Long>) id -> {
      if (id % 15_000 == 0) {
        Thread.sleep(mapMillis);
      }
      return id;
    }, org.apache.spark.sql.types.DataTypes.LongType);
    Dataset<Row> large = spark.range(0, 120_000, 1, 8).selectExpr("slowly(id) % 500 AS k", "id AS v");
    Dataset<Row> small = spark.range(0, 100, 1, 1).selectExpr("id AS k", "id * 10 AS w");
    Dataset<Row> joined = small.join(large, "k").selectExpr("v * w AS p")
        .agg(functions.count("p").as("n"), functions.sum("p").as("s"), functions.max("p").as("m"));
    List<String> rows = sorted(joined.collectAsList().stream().map(Row::toString).collect(Collectors.toList()));
    return new Tuple2<>(rows, joined.queryExecution().executedPlan().toString());
  }

  /**
   * A Spark SQL join planned as a sort-merge join (adaptive broadcast threshold 1 MiB) of a side of 8 quick maps and
   * an aggregation of {@code otherRows} rows whose one map waits {@code lastMapMillis} first: that side's shuffle for
   * the join is staged only once the aggregation's map stage has ended, after the first side's maps. With few rows
   * adaptive execution then broadcasts it and reads the first side where its maps ran, with many (over the threshold)
   * the join stays a sort-merge join. Returns the rows and the final plan.
   */
  static Tuple2<List<String>, String> sqlJoinWhoseOtherSideEndsLast(SparkSession spark, int otherRows,
      long lastMapMillis) {
    spark.conf().set("spark.sql.autoBroadcastJoinThreshold", "-1");
    spark.conf().set("spark.sql.adaptive.autoBroadcastJoinThreshold", "1m");
    spark.udf().register("lastToEnd", (org.apache.spark.sql.api.java.UDF1<Long, Long>) id -> {
      if (id == 0) {
        Thread.sleep(lastMapMillis);
      }
      return id;
    }, org.apache.spark.sql.types.DataTypes.LongType);
    Dataset<Row> first = spark.range(0, 400_000, 1, 8).selectExpr("id % 997 AS k", "id AS v");
    Dataset<Row> other = spark.range(0, otherRows, 1, 1).selectExpr("lastToEnd(id) AS id", "id * 7 AS w")
        .groupBy("id").agg(functions.max("w").as("w")).selectExpr("id * 2 AS k", "w");
    Dataset<Row> joined = first.join(other, "k").selectExpr("v * w AS p")
        .agg(functions.count("p").as("n"), functions.sum("p").as("s"), functions.max("p").as("m"));
    List<String> rows = sorted(joined.collectAsList().stream().map(Row::toString).collect(Collectors.toList()));
    return new Tuple2<>(rows, joined.queryExecution().executedPlan().toString());
  }

  /** The adaptive configuration of the SQL jobs: coalescing on, small skew thresholds, no broadcast joins. */
  static org.apache.spark.SparkConf adaptive(org.apache.spark.SparkConf conf) {
    return conf.set("spark.sql.adaptive.enabled", "true")
        .set("spark.sql.adaptive.coalescePartitions.enabled", "true")
        .set("spark.sql.adaptive.advisoryPartitionSizeInBytes", "16k")
        .set("spark.sql.adaptive.skewJoin.enabled", "true")
        .set("spark.sql.adaptive.skewJoin.skewedPartitionFactor", "2")
        .set("spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes", "16k")
        // the aggregation after the join needs its partitioning: split the skewed partition all the same
        .set("spark.sql.adaptive.forceOptimizeSkewedJoin", "true")
        .set("spark.sql.autoBroadcastJoinThreshold", "-1");
  }

  private static List<String> sorted(List<String> lines) {
    List<String> copy = new ArrayList<>(lines);
    Collections.sort(copy);
    return copy;
  }

  /** Each key of a grouping of numbers with its values sorted, the lines sorted. */
  static List<String> groupedNumbers(JavaPairRDD<Integer, Iterable<Integer>> grouped) {
    List<String> out = new ArrayList<>(grouped.map(kv -> {
      List<Integer> values = new ArrayList<>();
      kv._2().forEach(values::add);
      Collections.sort(values);
      return kv._1() + "=" + values;
    }).collect());
    Collections.sort(out);
    return out;
  }
}
