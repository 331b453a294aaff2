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
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;
import scala.runtime.BoxedUnit;

/**
 * Spark's DAG scheduler, with two changes: a task reading SCache shuffles prefers the host their reduces were placed on
 * ({@link PlacedLocations}), and a job's shuffle dependencies are created in the submitting thread, before the job is
 * queued, so that shuffles which need sampling are sampled before their maps run ({@link ShuffleLineage}).
 * Spark 4's form: Scala 2.13's {@code Seq} is {@code scala.collection.immutable.Seq}, the type both overrides take or
 * return (with {@code scala.collection.Seq} they would not override at all).
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
    return CollectionConverters.asScala(PlacedLocations.withPlacedHost(host.get(), CollectionConverters.asJava(spark)))
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
