package org.scache.spark;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.spark.Dependency;
import org.apache.spark.NarrowDependency;
import org.apache.spark.Partition;
import org.apache.spark.ShuffleDependency;
import org.apache.spark.rdd.RDD;
import org.apache.spark.sql.execution.CoalescedMapperPartitionSpec;
import org.apache.spark.sql.execution.CoalescedPartitionSpec;
import org.apache.spark.sql.execution.PartialMapperPartitionSpec;
import org.apache.spark.sql.execution.PartialReducerPartitionSpec;
import scala.collection.Iterator;

/**
 * Which reduce partitions of which SCache shuffles a task reads: found from the task's RDD
 * partition through its narrow lineage, down to the RDDs that read shuffles. A shuffled RDD of the
 * RDD API (ShuffledRDD, CoGroupedRDD, ...) reads reduce {@code i} in its partition {@code i}; Spark
 * SQL's ShuffledRowRDD says in its partition's spec which reduces it reads (a coalesced range, or one
 * reduce of a skew split). A partition that reads map outputs (SQL's local shuffle reader: part of one map's output,
 * or the whole output of a range of maps) reads them on their hosts, where Spark prefers to run it.
 */
final class ShuffleReads {
  /**
   * Reduces {@code [startReduce, endReduce)} of shuffle {@code shuffleId}; or, {@code inPlace}, the output of some of
   * its maps, read on their hosts (no reduce range).
   */
  record Read(int shuffleId, int startReduce, int endReduce, boolean inPlace) {
    static Read reduces(int shuffleId, int startReduce, int endReduce) {
      return new Read(shuffleId, startReduce, endReduce, false);
    }

    static Read mapOutputs(int shuffleId) {
      return new Read(shuffleId, 0, 0, true);
    }
  }

  private static final String SQL_SHUFFLED_ROW_RDD = "org.apache.spark.sql.execution.ShuffledRowRDD";

  private ShuffleReads() {}

  static List<Read> of(RDD<?> rdd, int partition) {
    List<Read> reads = new ArrayList<>();
    collect(rdd, partition, reads, new HashSet<>());
    return reads;
  }

  private static void collect(RDD<?> rdd, int partition, List<Read> reads, Set<List<Object>> visited) {
    if (!visited.add(List.of(rdd.id(), partition))) {
      return;
    }
    Iterator<Dependency<?>> deps = rdd.dependencies().iterator();
    while (deps.hasNext()) {
      Dependency<?> dep = deps.next();
      if (dep instanceof ShuffleDependency<?, ?, ?> shuffle) {
        if (shuffle.shuffleHandle() instanceof ScacheShuffleHandle<?, ?, ?>) {
          readOf(rdd, partition, shuffle).ifPresent(reads::add);
        }
      } else if (dep instanceof NarrowDependency<?> narrow) {
        scala.collection.Iterator<Object> parents = narrow.getParents(partition).iterator();
        while (parents.hasNext()) {
          collect(narrow.rdd(), (Integer) parents.next(), reads, visited);
        }
      }
    }
  }

  private static Optional<Read> readOf(RDD<?> rdd, int partition, ShuffleDependency<?, ?, ?> dep) {
    int shuffleId = dep.shuffleId();
    if (rdd.getClass().getName().equals(SQL_SHUFFLED_ROW_RDD)) {
      return sqlRead(rdd.partitions()[partition], shuffleId);
    }
    if (rdd.partitions().length == dep.partitioner().numPartitions()) {
      return Optional.of(Read.reduces(shuffleId, partition, partition + 1));
    }
    return Optional.empty();
  }

  /** The reduces a partition of Spark SQL's ShuffledRowRDD reads, from its spec. */
  private static Optional<Read> sqlRead(Partition p, int shuffleId) {
    Object spec;
    try {
      spec = p.getClass().getMethod("spec").invoke(p);
    } catch (ReflectiveOperationException e) {
      return Optional.empty();
    }
    if (spec instanceof CoalescedPartitionSpec c) {
      return c.endReducerIndex() > c.startReducerIndex()
          ? Optional.of(Read.reduces(shuffleId, c.startReducerIndex(), c.endReducerIndex())) : Optional.empty();
    }
    if (spec instanceof PartialReducerPartitionSpec r) {
      return Optional.of(Read.reduces(shuffleId, r.reducerIndex(), r.reducerIndex() + 1));
    }
    if (spec instanceof PartialMapperPartitionSpec || spec instanceof CoalescedMapperPartitionSpec) {
      return Optional.of(Read.mapOutputs(shuffleId));
    }
    return Optional.empty();
  }
}
