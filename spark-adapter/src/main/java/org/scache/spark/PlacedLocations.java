package org.scache.spark;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.rdd.RDD;
import org.apache.spark.scheduler.ExecutorCacheTaskLocation;
import org.apache.spark.scheduler.TaskLocation;
import org.apache.spark.scheduler.TaskLocation$;
import org.scache.common.WorkerInfo;
import org.scache.common.shuffle.ShufflePlacement;

/**
 * The preferred locations {@link PlacingDagScheduler} gives a task that reads reduce partitions of SCache shuffles,
 * so that Spark launches it where its input was prefetched (paper III-B, IV-A) and, after its locality wait,
 * elsewhere, where the task then reads remotely: the host most of them were placed on, then the executors caching a
 * partition the task reads (PageRank's links, an iteration's cached input), which Spark prefers at its process-local
 * level. The map outputs' hosts Spark names for a shuffle read are SCache's to place, so they are left out. Written
 * once for every Spark line: the scheduler of each line converts its Scala sequences to and from these lists.
 */
final class PlacedLocations {
  private PlacedLocations() {}

  /**
   * The host most of the partition's reduces were placed on, if the master placed them. A shuffle the partition reads
   * map by map, on its maps' hosts, is no longer prefetched: its placement does not say where it is read.
   */
  static Optional<String> placedHost(ScacheShuffleManager manager, RDD<?> rdd, int partition) {
    Map<String, Integer> votes = new HashMap<>();
    for (ShuffleReads.Read read : ShuffleReads.of(rdd, partition)) {
      if (read.inPlace()) {
        manager.readInPlace(read.shuffleId(), "as a stage reading it was submitted");
        continue;
      }
      manager.releaseCopies(read.shuffleId(), "as a stage reading it by reduce was submitted");
      Optional<ShufflePlacement> placement = manager.placement(read.shuffleId());
      if (placement.isEmpty()) {
        continue;
      }
      for (int r = read.startReduce(); r < read.endReduce(); r++) {
        placement.get().workerOf(r).map(WorkerInfo::host).ifPresent(h -> votes.merge(h, 1, Integer::sum));
      }
    }
    return votes.entrySet().stream().max(Map.Entry.<String, Integer>comparingByValue()
        .thenComparing(Map.Entry.comparingByKey(Comparator.reverseOrder()))).map(Map.Entry::getKey);
  }

  /** The placed host first, then the cached partitions' executors among Spark's own locations. */
  static List<TaskLocation> withPlacedHost(String host, List<TaskLocation> spark) {
    List<TaskLocation> locations = new ArrayList<>();
    locations.add(TaskLocation$.MODULE$.apply(host));
    spark.stream().filter(l -> l instanceof ExecutorCacheTaskLocation).forEach(locations::add);
    return locations;
  }
}
