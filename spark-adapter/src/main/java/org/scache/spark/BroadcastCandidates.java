package org.scache.spark;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.spark.ShuffleDependency;
import org.apache.spark.sql.catalyst.plans.ExistenceJoin;
import org.apache.spark.sql.catalyst.plans.InnerLike;
import org.apache.spark.sql.catalyst.plans.JoinType;
import org.apache.spark.sql.catalyst.plans.LeftAnti$;
import org.apache.spark.sql.catalyst.plans.LeftOuter$;
import org.apache.spark.sql.catalyst.plans.LeftSemi$;
import org.apache.spark.sql.catalyst.plans.RightOuter$;
import org.apache.spark.sql.execution.SortExec;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.adaptive.AQEShuffleReadExec;
import org.apache.spark.sql.execution.adaptive.AdaptiveSparkPlanExec;
import org.apache.spark.sql.execution.adaptive.ShuffleQueryStageExec;
import org.apache.spark.sql.execution.exchange.ENSURE_REQUIREMENTS$;
import org.apache.spark.sql.execution.exchange.ShuffleExchangeExec;
import org.apache.spark.sql.execution.joins.ShuffledJoin;

/**
 * The SCache shuffles of an adaptive plan that adaptive execution may still read where their maps ran: the sides of
 * its shuffled joins (sort-merge or shuffled hash) whose other side is a shuffle stage that could become the build
 * side of a broadcast join, as adaptive execution re-plans a join once a side's map stage has ended and written no
 * more than its broadcast threshold. The side kept as the streamed one is then read map by map (Spark's
 * {@code OptimizeShuffleWithLocalRead}); which side may be built follows the join's type, as Spark's own join selection
 * has it (the left for inner and right outer joins, the right for inner, left outer, semi, anti and existence joins).
 */
final class BroadcastCandidates {
  private BroadcastCandidates() {}

  /**
   * Each SCache shuffle that a shuffled join of {@code plan} (its subqueries included) streams, with the stages of the
   * join's other side that could still be broadcast: not yet materialized, and written no more than {@code
   * threshold} bytes so far. A materialized stage under a join that is still a shuffled join was not broadcast.
   */
  static Map<Integer, List<ShuffleQueryStageExec>> of(SparkPlan plan, long threshold) {
    Map<Integer, List<ShuffleQueryStageExec>> candidates = new LinkedHashMap<>();
    if (threshold >= 0) {
      collect(plan, threshold, candidates);
    }
    return candidates;
  }

  /** The SCache shuffles added for joins' requirements whose stages {@code plan} has, its subqueries' included. */
  static Set<Integer> joinShufflesOf(SparkPlan plan) {
    Set<Integer> out = new LinkedHashSet<>();
    collectStages(plan, out);
    return out;
  }

  private static void collectStages(SparkPlan plan, Set<Integer> out) {
    if (plan instanceof AdaptiveSparkPlanExec adaptive) {
      collectStages(adaptive.executedPlan(), out);
      return;
    }
    if (plan instanceof ShuffleQueryStageExec stage) {
      int shuffle = scacheShuffleAddedForAJoin(stage);
      if (shuffle >= 0) {
        out.add(shuffle);
      }
    }
    scala.collection.Iterator<SparkPlan> children = plan.children().iterator();
    while (children.hasNext()) {
      collectStages(children.next(), out);
    }
    scala.collection.Iterator<SparkPlan> subqueries = plan.subqueries().iterator();
    while (subqueries.hasNext()) {
      collectStages(subqueries.next(), out);
    }
  }

  /** Whether {@code stage}, the build side of a join that may be broadcast, has written no more than its threshold. */
  static boolean mayStillBroadcast(ShuffleQueryStageExec stage, long threshold) {
    return writtenBytes(stage) <= threshold;
  }

  private static void collect(SparkPlan plan, long threshold, Map<Integer, List<ShuffleQueryStageExec>> out) {
    if (plan instanceof AdaptiveSparkPlanExec adaptive) {
      collect(adaptive.executedPlan(), threshold, out);
      return;
    }
    if (plan instanceof ShuffledJoin join) {
      JoinType type = join.joinType();
      if (buildsRight(type)) {
        add(join.left(), join.right(), threshold, out);
      }
      if (buildsLeft(type)) {
        add(join.right(), join.left(), threshold, out);
      }
    }
    scala.collection.Iterator<SparkPlan> children = plan.children().iterator();
    while (children.hasNext()) {
      collect(children.next(), threshold, out);
    }
    scala.collection.Iterator<SparkPlan> subqueries = plan.subqueries().iterator();
    while (subqueries.hasNext()) {
      collect(subqueries.next(), threshold, out);
    }
  }

  private static void add(SparkPlan streamed, SparkPlan build, long threshold,
      Map<Integer, List<ShuffleQueryStageExec>> out) {
    ShuffleQueryStageExec buildStage = stageOf(build);
    int shuffle = scacheShuffleAddedForAJoin(stageOf(streamed));
    if (shuffle < 0 || buildStage == null || buildStage.isMaterialized()
        || !mayStillBroadcast(buildStage, threshold)) {
      return;
    }
    out.computeIfAbsent(shuffle, s -> new ArrayList<>()).add(buildStage);
  }

  /** The shuffle stage a join's child reads (through its sort and adaptive read), or null. */
  private static ShuffleQueryStageExec stageOf(SparkPlan child) {
    SparkPlan p = child instanceof SortExec sort ? sort.child() : child;
    p = p instanceof AQEShuffleReadExec read ? read.child() : p;
    return p instanceof ShuffleQueryStageExec stage ? stage : null;
  }

  /** The SCache shuffle of {@code stage} if it was added for a join's requirements, else -1. */
  static int scacheShuffleAddedForAJoin(ShuffleQueryStageExec stage) {
    if (stage == null || !(stage.shuffle() instanceof ShuffleExchangeExec exchange)
        || exchange.shuffleOrigin() != ENSURE_REQUIREMENTS$.MODULE$) {
      return -1;
    }
    ShuffleDependency<?, ?, ?> dependency = exchange.shuffleDependency();
    return dependency.shuffleHandle() instanceof ScacheShuffleHandle<?, ?, ?> ? dependency.shuffleId() : -1;
  }

  /** The bytes of rows the stage's maps have written so far, as adaptive execution sizes a side to broadcast. */
  private static long writtenBytes(ShuffleQueryStageExec stage) {
    return stage.shuffle().runtimeStatistics().sizeInBytes().longValue();
  }

  private static boolean buildsLeft(JoinType type) {
    return type instanceof InnerLike || type == RightOuter$.MODULE$;
  }

  private static boolean buildsRight(JoinType type) {
    return type instanceof InnerLike || type == LeftOuter$.MODULE$ || type == LeftSemi$.MODULE$
        || type == LeftAnti$.MODULE$ || type instanceof ExistenceJoin;
  }
}
