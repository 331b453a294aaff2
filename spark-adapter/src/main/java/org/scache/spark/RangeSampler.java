package org.scache.spark;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import org.apache.spark.Partitioner;
import org.apache.spark.ShuffleDependency;
import org.apache.spark.SparkEnv;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.util.SizeEstimator;
import org.scache.common.shuffle.MapSample;
import org.scache.sampling.ReservoirSampler;
import scala.Product2;
import scala.reflect.ClassTag$;

/**
 * Samples the map input of a shuffle whose partitioner is not a hash (paper III-B2): one Spark job
 * over the map side's RDD reservoir-samples {@code s × p} records of every map partition, counts the
 * sampled records each reduce partition gets from the shuffle's own partitioner, and estimates the
 * partition's size from the records' sizes; the host the sampling task ran on is where the map is
 * expected to run (both follow the partition's preferred locations). The master places such a
 * shuffle from these samples before any of its maps has run.
 */
final class RangeSampler {
  private RangeSampler() {}

  /** One sample per map partition, in map order. */
  static <K, V> List<MapSample> sample(ShuffleDependency<K, V, ?> dep, int samplesPerReduce, long seed) {
    Partitioner partitioner = dep.partitioner();
    int reduces = partitioner.numPartitions();
    int capacity = Math.max(1, samplesPerReduce) * reduces;
    @SuppressWarnings({"unchecked", "rawtypes"})
    JavaRDD<Product2<K, V>> records = new JavaRDD(dep.rdd(), ClassTag$.MODULE$.apply(Product2.class));
    List<MapSample> samples = new ArrayList<>();
    for (PartitionSample p : records.mapPartitionsWithIndex(new SampleOnePartition<K, V>(partitioner, capacity, seed),
        false).collect()) {
      List<Integer> counts = new ArrayList<>(p.counts.length);
      for (int c : p.counts) {
        counts.add(c);
      }
      samples.add(new MapSample(p.mapIndex, p.inputBytes, capacity, counts, Optional.of(p.host)));
    }
    return samples;
  }

  /**
   * A map partition's sample as it travels from the sampling task to the driver, in the application's
   * serializer: a class, not a record, since Kryo cannot build records.
   */
  private static final class PartitionSample implements Serializable {
    private static final long serialVersionUID = 1L;
    private final int mapIndex;
    private final long inputBytes;
    private final int[] counts;
    private final String host;

    PartitionSample(int mapIndex, long inputBytes, int[] counts, String host) {
      this.mapIndex = mapIndex;
      this.inputBytes = inputBytes;
      this.counts = counts;
      this.host = host;
    }
  }

  /** The sample of one map partition, run in the sampling job's task. */
  private static final class SampleOnePartition<K, V>
      implements org.apache.spark.api.java.function.Function2<Integer, Iterator<Product2<K, V>>,
          Iterator<PartitionSample>> {
    private static final long serialVersionUID = 1L;
    private final Partitioner partitioner;
    private final int capacity;
    private final long seed;

    SampleOnePartition(Partitioner partitioner, int capacity, long seed) {
      this.partitioner = partitioner;
      this.capacity = capacity;
      this.seed = seed;
    }

    @Override
    public Iterator<PartitionSample> call(Integer mapIndex, Iterator<Product2<K, V>> records) {
      ReservoirSampler<Product2<K, V>> sampler = new ReservoirSampler<>(capacity,
          new SplittableRandom(seed * 31 + mapIndex));
      records.forEachRemaining(sampler::offer);
      List<Product2<K, V>> sampled = sampler.sample();
      int[] counts = new int[partitioner.numPartitions()];
      long sampledBytes = 0;
      for (Product2<K, V> r : sampled) {
        counts[partitioner.getPartition(r._1())]++;
        sampledBytes += SizeEstimator.estimate(r);
      }
      long inputBytes = sampled.isEmpty() ? 0 : sampledBytes * sampler.seen() / sampled.size();
      // a map's sampling task runs where the map's input prefers, as the map task itself will
      String host = SparkEnv.get().blockManager().blockManagerId().host();
      return List.of(new PartitionSample(mapIndex, inputBytes, counts, host)).iterator();
    }
  }
}
