package org.scache.spark;

import java.util.LinkedHashSet;
import java.util.Set;
import org.apache.spark.ShuffleDependency;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerEvent;
import org.apache.spark.sql.catalyst.optimizer.BuildRight$;
import org.apache.spark.sql.execution.QueryExecution;
import org.apache.spark.sql.execution.SQLExecution;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.adaptive.AQEShuffleReadExec;
import org.apache.spark.sql.execution.adaptive.AdaptiveSparkPlanExec;
import org.apache.spark.sql.execution.adaptive.ShuffleQueryStageExec;
import org.apache.spark.sql.execution.exchange.ENSURE_REQUIREMENTS$;
import org.apache.spark.sql.execution.exchange.ShuffleExchangeExec;
import org.apache.spark.sql.execution.joins.BroadcastHashJoinExec;
import org.apache.spark.sql.execution.ui.SparkListenerSQLAdaptiveExecutionUpdate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells SCache that a shuffle will be read where its maps ran as soon as adaptive execution re-plans its join into a
 * broadcast hash join, not when the stage reading it is submitted. Adaptive execution turns a sort-merge join into a
 * broadcast join once the small side's map stage has ended, and then reads the large (probe) side's shuffle map by
 * map on the maps' nodes (its local shuffle reads). Until the driver says so, the workers copy that shuffle's blocks
 * to the reduces' placed hosts, taking the links the local reads and the other shuffles need; where the small side's
 * maps end before the large side's, said at the re-plan, the copies stop while the large side's maps still run.
 *
 * <p>The probe side is predicted as Spark's own rule picks it ({@code OptimizeShuffleWithLocalRead}): the child of a
 * broadcast hash join on its streamed side that is a shuffle stage (or a read of one) of a shuffle added for the
 * join's requirements, with local reads enabled. Where that rule then keeps the reduce-wise read (a local read that
 * would break a distribution the stage needs), the reduces read their blocks from the maps' nodes, as Spark's own
 * shuffle does.
 */
final class AdaptiveLocalReads extends SparkListener {
  private static final Logger LOG = LoggerFactory.getLogger(AdaptiveLocalReads.class);
  private static final String LOCAL_READS_KEY = "spark.sql.adaptive.localShuffleReader.enabled";
  private static final String UPDATE_EVENT =
      "org.apache.spark.sql.execution.ui.SparkListenerSQLAdaptiveExecutionUpdate";

  private final ScacheShuffleManager manager;

  AdaptiveLocalReads(ScacheShuffleManager manager) {
    this.manager = manager;
  }

  /** Whether this Spark has adaptive execution's plan updates to listen to (Spark SQL on the class path). */
  static boolean available() {
    try {
      Class.forName(UPDATE_EVENT, false, AdaptiveLocalReads.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  @Override
  public void onOtherEvent(SparkListenerEvent event) {
    if (!(event instanceof SparkListenerSQLAdaptiveExecutionUpdate update)) {
      return;
    }
    try {
      QueryExecution qe = SQLExecution.getQueryExecution(update.executionId());
      if (qe == null || !Boolean.parseBoolean(qe.sparkSession().conf().get(LOCAL_READS_KEY, "true"))) {
        return;
      }
      for (int shuffleId : probeSidesOfBroadcastJoins(qe.executedPlan())) {
        manager.readInPlace(shuffleId, "as adaptive execution re-planned a join into a broadcast join");
      }
    } catch (RuntimeException | LinkageError e) {
      // a plan of a shape or Spark version not read here: the stage's submission still says it
      LOG.debug("cannot read adaptive execution's plan of execution {}: {}", update.executionId(), e.toString());
    }
  }

  /** The SCache shuffles on the streamed side of a broadcast hash join in {@code plan}, its subqueries included. */
  static Set<Integer> probeSidesOfBroadcastJoins(SparkPlan plan) {
    Set<Integer> shuffles = new LinkedHashSet<>();
    collect(plan, shuffles);
    return shuffles;
  }

  private static void collect(SparkPlan plan, Set<Integer> shuffles) {
    if (plan instanceof AdaptiveSparkPlanExec adaptive) {
      collect(adaptive.executedPlan(), shuffles);
      return;
    }
    if (plan instanceof BroadcastHashJoinExec join) {
      SparkPlan streamed = join.buildSide() == BuildRight$.MODULE$ ? join.left() : join.right();
      int shuffle = scacheShuffleRead(streamed);
      if (shuffle >= 0) {
        shuffles.add(shuffle);
      }
    }
    scala.collection.Iterator<SparkPlan> children = plan.children().iterator();
    while (children.hasNext()) {
      collect(children.next(), shuffles);
    }
    scala.collection.Iterator<SparkPlan> subqueries = plan.subqueries().iterator();
    while (subqueries.hasNext()) {
      collect(subqueries.next(), shuffles);
    }
  }

  /** The SCache shuffle {@code plan} reads if it is a shuffle stage added for a join's requirements, else -1. */
  private static int scacheShuffleRead(SparkPlan plan) {
    SparkPlan stage = plan instanceof AQEShuffleReadExec read ? read.child() : plan;
    if (!(stage instanceof ShuffleQueryStageExec s) || !(s.shuffle() instanceof ShuffleExchangeExec exchange)
        || exchange.shuffleOrigin() != ENSURE_REQUIREMENTS$.MODULE$) {
      return -1;
    }
    ShuffleDependency<?, ?, ?> dependency = exchange.shuffleDependency();
    return dependency.shuffleHandle() instanceof ScacheShuffleHandle<?, ?, ?> ? dependency.shuffleId() : -1;
  }
}
