package org.scache.spark;

import java.util.Optional;
import java.util.Properties;
import org.apache.spark.SparkContext;
import org.apache.spark.TaskContext;
import org.apache.spark.rdd.RDD;
import org.apache.spark.scheduler.DAGScheduler;
import org.apache.spark.scheduler.JobWaiter;
import org.apache.spark.scheduler.TaskLocation;
import org.apache.spark.util.CallSite;
import scala.Function2;
import scala.collection.Iterator;
import scala.collection.JavaConverters;
import scala.collection.Seq;
import scala.runtime.BoxedUnit;

/**
 * Spark's DAG scheduler, with two changes: a task reading SCache shuffles prefers the host their reduces were placed on
 * ({@link PlacedLocations}), and a job's shuffle dependencies are created in the submitting thread, before the job is
 * queued, so that shuffles which need sampling are sampled before their maps run ({@link ShuffleLineage}).
 * Spark 3.5's form: Scala 2.12's {@code scala.collection.Seq} in the overrides.
 */
final class PlacingDagScheduler extends DAGScheduler {
  private final ScacheShuffleManager manager;

  PlacingDagScheduler(SparkContext sc, ScacheShuffleManager manager) {
    super(sc);
    this.manager = manager;
  }

  @Override
  public Seq<TaskLocation> getPreferredLocs(RDD<?> rdd, int partition) {
    Seq<TaskLocation> spark = super.getPreferredLocs(rdd, partition);
    // the super constructor starts the event loop before this class's fields are set
    Optional<String> host = manager == null ? Optional.empty() : PlacedLocations.placedHost(manager, rdd, partition);
    if (host.isEmpty()) {
      return spark;
    }
    return JavaConverters.asScalaBuffer(PlacedLocations.withPlacedHost(host.get(), JavaConverters.seqAsJavaList(spark)))
        .toSeq();
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
}
