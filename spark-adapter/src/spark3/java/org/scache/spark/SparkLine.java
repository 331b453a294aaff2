package org.scache.spark;

import org.apache.spark.Aggregator;
import org.apache.spark.Partitioner;
import org.apache.spark.TaskContext;
import org.apache.spark.scheduler.MapStatus;
import org.apache.spark.scheduler.MapStatus$;
import org.apache.spark.serializer.Serializer;
import org.apache.spark.storage.BlockManagerId;
import org.apache.spark.util.collection.ExternalSorter;
import scala.Option;
import scala.math.Ordering;

/**
 * The Spark calls whose form differs between the Spark lines the adapter's shared sources are compiled for; each
 * line's module has its own. This is Spark 3.5's: the sorter's five-argument constructor and the three-argument map
 * status.
 */
final class SparkLine {
  private SparkLine() {}

  static <K, V, C> ExternalSorter<K, V, C> sorter(TaskContext context, Option<Aggregator<K, V, C>> aggregator,
      Option<Partitioner> partitioner, Option<Ordering<K>> ordering, Serializer serializer) {
    return new ExternalSorter<>(context, aggregator, partitioner, ordering, serializer);
  }

  static MapStatus mapStatus(BlockManagerId location, long[] lengths, long mapTaskId) {
    return MapStatus$.MODULE$.apply(location, lengths, mapTaskId);
  }
}
