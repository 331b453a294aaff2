package org.scache.spark;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.spark.Partitioner;

/**
 * Which shuffles feed one reduce stage, guessed when they are registered, for the master's
 * Algorithm 2 (which places the reduces of a stage's shuffles on the same workers). Spark creates a
 * join's shuffle dependencies together: in the RDD API they share the join's partitioner (or an equal
 * one); in SQL
 * they are registered while the same query runs ({@code spark.sql.execution.id}) with the same number
 * of partitions. Shuffles with the same key get the same stage id; a shuffle whose key no other
 * shuffle shares is placed alone all the same.
 */
final class ShuffleStages {
  private record Key(Object scope, int partitions) {}

  private final Map<Key, Integer> ids = new HashMap<>();

  /** The stage id of a shuffle partitioned by {@code partitioner}, registered under {@code sqlExecution}. */
  synchronized int stageOf(Partitioner partitioner, Optional<String> sqlExecution) {
    Objects.requireNonNull(partitioner, "partitioner");
    // partitioners compare by what they partition with (a HashPartitioner by its count), so co-partitioned
    // shuffles of the RDD API share a stage even when each made its own partitioner
    Object scope = sqlExecution.<Object>map(id -> "sql-" + id).orElse(partitioner);
    return ids.computeIfAbsent(new Key(scope, partitioner.numPartitions()), k -> ids.size());
  }
}
