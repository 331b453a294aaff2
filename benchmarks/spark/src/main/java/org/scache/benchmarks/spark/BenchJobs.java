package org.scache.benchmarks.spark;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.SplittableRandom;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import scala.Tuple2;

/**
 * The benchmark's Spark programs, each a few dozen lines as an application author would write them.
 * Every record is generated from a seed per map task, so that both shuffles see the same input; each
 * program returns a digest of its output that the benchmark compares across shuffles.
 */
final class BenchJobs {
  /** Bytes of one record's value by default; with its 8-byte key about the 100 bytes of a TeraSort record. */
  static final int VALUE_BYTES = 92;
  private static final int KEY_BYTES = 8;

  private BenchJobs() {}

  /** A GroupBy value length as the options give it: a whole number of bytes, at least 1. */
  static int valueBytes(String text) {
    int bytes;
    try {
      bytes = Integer.parseInt(text.trim());
    } catch (NumberFormatException e) {
      bytes = 0;
    }
    if (bytes < 1) {
      throw new IllegalArgumentException("--value-bytes takes a number of bytes of at least 1, not " + text);
    }
    return bytes;
  }

  /** The programs, by the name the benchmark's options use. */
  enum Program {
    /** The paper's single-shuffle test: random keys, several values each, grouped by key. */
    GROUPBY,
    /** 100-byte records sorted by key through a range partitioner, the input first written to files. */
    TERASORT,
    /** Twenty shuffles of tiny stages one after the other: what a stage and a task cost beyond their work. */
    CHAIN,
    /** A join of two inputs, then an aggregation of the joined pairs: three shuffles. */
    JOIN,
    /** Spark's PageRank example, five iterations over a cached graph: eleven shuffles. */
    PAGERANK;

    static Program parse(String s) {
      return valueOf(s.trim().toUpperCase(java.util.Locale.ROOT));
    }

    String label() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /**
   * {@code maps} tasks each generating its share of {@code bytes} of (key, value) records whose values
   * are {@code valueBytes} long.
   */
  static JavaPairRDD<Long, byte[]> generate(JavaSparkContext sc, long bytes, int maps, long keySpace,
      int valueBytes) {
    long perMap = Math.max(1, bytes / (KEY_BYTES + valueBytes) / maps);
    List<Integer> seeds = new ArrayList<>();
    for (int m = 0; m < maps; m++) {
      seeds.add(m);
    }
    return sc.parallelize(seeds, maps).flatMapToPair(m -> new Records(m, perMap, keySpace, valueBytes));
  }

  /**
   * GroupBy: groups {@code bytes} of generated records with values of {@code valueBytes} by key into
   * {@code reduces} partitions (about ten values a key) and digests each group. Spark's own GroupByTest,
   * the paper's single-shuffle test, has values of 1000 bytes by default: fewer records per byte shuffled,
   * so less of the job is the tasks' work per record.
   */
  static String groupBy(JavaSparkContext sc, long bytes, int maps, int reduces, int valueBytes) {
    long keySpace = Math.max(1, bytes / (KEY_BYTES + valueBytes) / 10);
    Digest d = generate(sc, bytes, maps, keySpace, valueBytes).groupByKey(reduces)
        .map(kv -> {
          long values = 0;
          long sum = 0;
          for (byte[] v : kv._2()) {
            values++;
            sum += Arrays.hashCode(v);
          }
          return new Digest(1, values, kv._1() * 31 + sum);
        })
        .fold(Digest.EMPTY, Digest::plus);
    return "groups=" + d.groups + " values=" + d.records + " checksum=" + d.checksum;
  }

  /** TeraGen: writes {@code bytes} of records to {@code dir} as object files, one per map. */
  static void teraGen(JavaSparkContext sc, long bytes, int maps, String dir) {
    generate(sc, bytes, maps, Long.MAX_VALUE, VALUE_BYTES).saveAsObjectFile(dir);
  }

  /** TeraSort: sorts the records in {@code dir} by key into {@code reduces} ranges and checks the order. */
  static String teraSort(JavaSparkContext sc, String dir, int reduces) {
    JavaPairRDD<Long, byte[]> input = JavaPairRDD.fromJavaRDD(sc.<Tuple2<Long, byte[]>>objectFile(dir));
    List<PartitionDigest> parts = input.sortByKey(true, reduces).mapPartitionsWithIndex((index, it) -> {
      long count = 0;
      long sum = 0;
      long first = 0;
      long last = 0;
      boolean sorted = true;
      while (it.hasNext()) {
        Tuple2<Long, byte[]> r = it.next();
        if (count == 0) {
          first = r._1();
        } else if (r._1() < last) {
          sorted = false;
        }
        last = r._1();
        count++;
        sum += r._1() * 31 + Arrays.hashCode(r._2());
      }
      return List.of(new PartitionDigest(index, count, first, last, sorted, sum)).iterator();
    }, true).collect();
    List<PartitionDigest> ordered = new ArrayList<>(parts);
    ordered.sort((a, b) -> Integer.compare(a.index, b.index));
    boolean sorted = true;
    long records = 0;
    long checksum = 0;
    Long previousLast = null;
    for (PartitionDigest p : ordered) {
      sorted &= p.sorted;
      if (p.count > 0) {
        sorted &= previousLast == null || previousLast <= p.first;
        previousLast = p.last;
      }
      records += p.count;
      checksum += p.checksum;
    }
    return "records=" + records + " sorted=" + sorted + " checksum=" + checksum;
  }

  /** Sums of a program's output (a class, not a record: Kryo, Spark's serializer here, cannot build records). */
  static final class Digest implements Serializable {
    static final Digest EMPTY = new Digest(0, 0, 0);
    final long groups;
    final long records;
    final long checksum;

    Digest(long groups, long records, long checksum) {
      this.groups = groups;
      this.records = records;
      this.checksum = checksum;
    }

    Digest plus(Digest o) {
      return new Digest(groups + o.groups, records + o.records, checksum + o.checksum);
    }
  }

  /** One sorted partition: its records, first and last keys, whether it was in order, its checksum. */
  static final class PartitionDigest implements Serializable {
    final int index;
    final long count;
    final long first;
    final long last;
    final boolean sorted;
    final long checksum;

    PartitionDigest(int index, long count, long first, long last, boolean sorted, long checksum) {
      this.index = index;
      this.count = count;
      this.first = first;
      this.last = last;
      this.sorted = sorted;
      this.checksum = checksum;
    }
  }

  /** The records of one map task: {@code count} of them, keys below {@code keySpace}, from seed {@code map}. */
  private static final class Records implements Iterator<Tuple2<Long, byte[]>> {
    private final SplittableRandom random;
    private final long count;
    private final long keySpace;
    private final int valueBytes;
    private long produced;

    Records(int map, long count, long keySpace, int valueBytes) {
      this.random = new SplittableRandom(0x5ca4e_0000L + map);
      this.count = count;
      this.keySpace = keySpace;
      this.valueBytes = valueBytes;
    }

    @Override
    public boolean hasNext() {
      return produced < count;
    }

    @Override
    public Tuple2<Long, byte[]> next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      produced++;
      byte[] value = new byte[valueBytes];
      random.nextBytes(value);
      long key = keySpace == Long.MAX_VALUE ? random.nextLong() : random.nextLong(keySpace);
      return new Tuple2<>(key, value);
    }
  }
}
