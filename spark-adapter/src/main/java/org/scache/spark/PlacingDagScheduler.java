package org.scache.spark;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.spark.SparkContext;
import org.apache.spark.TaskContext;
import org.apache.spark.rdd.RDD;
import org.apache.spark.scheduler.DAGScheduler;
import org.apache.spark.scheduler.ExecutorCacheTaskLocation;
import org.apache.spark.scheduler.JobWaiter;
import org.apache.spark.scheduler.TaskLocation;
import org.apache.spark.scheduler.TaskLocation$;
import org.apache.spark.util.CallSite;
import org.scache.common.WorkerInfo;
import org.scache.common.shuffle.ShufflePlacement;
import scala.Function2;
import scala.collection.Iterator;
import scala.collection.JavaConverters;
import scala.collection.Seq;
import scala.runtime.BoxedUnit;

/**
 * Spark's DAG scheduler, with one change: a task that reads reduce partitions of SCache shuffles
 * prefers the host of the worker the master placed them on (paper III-B, IV-A), so Spark launches it
 * where its input was prefetched, beside the executors caching a partition it reads; Spark falls back to other
 * hosts after its locality wait, and the task then reads remotely. It also creates a job's shuffle dependencies
 * in the submitting thread, before the job is queued, so that shuffles which need sampling are sampled before
 * their maps run.
 */
final class PlacingDagScheduler extends DAGScheduler {
  private final ScacheShuffleManager manager;

  PlacingDagScheduler(SparkContext sc, ScacheShuffleManager manager) {
    super(sc);
    this.manager = manager;
  }

  /**
   * Spark's preferred locations of the task, with the placed host of the SCache reduces it reads first when the
   * master placed them: the task runs where its shuffle input was prefetched, and still in the executor that
   * caches a partition it reads (PageRank's links, an iteration's cached input), which Spark prefers at its
   * process-local level. A task that reads no placed shuffle keeps Spark's locations alone.
   */
  @Override
  public Seq<TaskLocation> getPreferredLocs(RDD<?> rdd, int partition) {
    Seq<TaskLocation> spark = super.getPreferredLocs(rdd, partition);
    // the super constructor starts the event loop before this class's fields are set
    Optional<String> host = manager == null ? Optional.empty() : placedHost(rdd, partition);
    if (host.isEmpty()) {
      return spark;
    }
    List<TaskLocation> locations = new ArrayList<>();
    locations.add(TaskLocation$.MODULE$.apply(host.get()));
    // a cached partition's executors; the map outputs' hosts Spark names for a shuffle read are SCache's to place
    JavaConverters.seqAsJavaList(spark).stream().filter(l -> l instanceof ExecutorCacheTaskLocation)
        .forEach(locations::add);
    return JavaConverters.asScalaBuffer(locations).toSeq();
  }

  @Override
  public <T, U> JobWaiter<U> submitJob(RDD<T> rdd, Function2<TaskContext, Iterator<T>, U> func,
      Seq<Object> partitions, CallSite callSite, Function2<Object, U, BoxedUnit> resultHandler,
      Properties properties) {
    if (manager != null) {
      ShuffleLineage.createDependencies(rdd);
    }
    return super.submitJob(rdd, func, partitions, callSite, resultHandler, properties);
  }

  /** The host most of the partition's reduces were placed on, if the master placed them. */
  private Optional<String> placedHost(RDD<?> rdd, int partition) {
    List<ShuffleReads.Read> reads = ShuffleReads.of(rdd, partition);
    Map<String, Integer> votes = new HashMap<>();
    for (ShuffleReads.Read read : reads) {
      Optional<ShufflePlacement> placement = manager.placement(read.shuffleId());
      if (placement.isEmpty()) {
        continue;
      }
      for (int r = read.startReduce(); r < read.endReduce(); r++) {
        placement.get().workerOf(r).map(WorkerInfo::host).ifPresent(h -> votes.merge(h, 1, Integer::sum));
      }
    }
    return votes.entrySet().stream().max(Map.Entry.<String, Integer>comparingByValue()
        .thenComparing(Map.Entry.comparingByKey(java.util.Comparator.reverseOrder()))).map(Map.Entry::getKey);
  }
}
