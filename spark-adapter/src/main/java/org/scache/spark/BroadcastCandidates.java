package org.scache.spark;

import java.lang.reflect.Field;
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
import org.apache.spark.sql.execution.exchange.ShuffleExchangeLike;
import org.apache.spark.sql.execution.joins.ShuffledJoin;

/**
 * The SCache shuffles of an adaptive plan that adaptive execution may still read where their maps ran: the sides of
 * its shuffled joins (sort-merge or shuffled hash) whose other side is a shuffle that could become the build side of a
 * broadcast join, as adaptive execution re-plans a join once a side's map stage has ended having written no more than
 * its broadcast threshold. The side kept as the streamed one is then read map by map (Spark's
 * {@code OptimizeShuffleWithLocalRead}); which side may be built follows the join's type, as Spark's own join selection
 * has it (the left for inner and right outer joins, the right for inner, left outer, semi, anti and existence joins).
 *
 * <p>A shuffle is named only once its dependency exists: reading a plan never creates one, which would run the plan's
 * preparation (its subqueries) on the reader's thread and register the shuffle outside its SQL execution.
 */
final class BroadcastCandidates {
  private static final Field DEPENDENCY = dependencyField();

  /**
   * What a plan holds: each SCache shuffle a shuffled join streams with the other sides that could still be broadcast;
   * and whether some such join's streamed side has no dependency yet, to be looked at again once it has.
   */
  record Found(Map<Integer, List<ShuffleExchangeLike>> candidates, boolean unnamed) {}

  private BroadcastCandidates() {}

  /**
   * The candidates of {@code plan}, its subqueries included: each SCache shuffle a shuffled join streams, with the
   * shuffles of the join's other side that have written no more than {@code threshold} bytes so far (none when the
   * threshold is negative: adaptive execution broadcasts nothing).
   */
  static Found of(SparkPlan plan, long threshold) {
    Map<Integer, List<ShuffleExchangeLike>> candidates = new LinkedHashMap<>();
    boolean[] unnamed = {false};
    if (threshold >= 0) {
      collect(plan, threshold, candidates, unnamed);
    }
    return new Found(candidates, unnamed[0]);
  }

  /** Whether {@code build}, the build side of a join that may be broadcast, has written no more than the threshold. */
  static boolean mayStillBroadcast(ShuffleExchangeLike build, long threshold) {
    return build.runtimeStatistics().sizeInBytes().longValue() <= threshold;
  }

  /** The SCache shuffles added for joins' requirements whose stages {@code plan} has, its subqueries' included. */
  static Set<Integer> joinShufflesOf(SparkPlan plan) {
    Set<Integer> out = new LinkedHashSet<>();
    walk(plan, p -> {
      if (p instanceof ShuffleQueryStageExec stage) {
        int shuffle = scacheShuffleAddedForAJoin(stage.shuffle());
        if (shuffle >= 0) {
          out.add(shuffle);
        }
      }
    });
    return out;
  }

  private static void collect(SparkPlan plan, long threshold, Map<Integer, List<ShuffleExchangeLike>> out,
      boolean[] unnamed) {
    walk(plan, p -> {
      if (p instanceof ShuffledJoin join) {
        JoinType type = join.joinType();
        if (buildsRight(type)) {
          add(join.left(), join.right(), threshold, out, unnamed);
        }
        if (buildsLeft(type)) {
          add(join.right(), join.left(), threshold, out, unnamed);
        }
      }
    });
  }

  private static void add(SparkPlan streamed, SparkPlan build, long threshold,
      Map<Integer, List<ShuffleExchangeLike>> out, boolean[] unnamed) {
    ShuffleExchangeLike streamedShuffle = shuffleOf(streamed);
    ShuffleExchangeLike buildShuffle = shuffleOf(build);
    if (streamedShuffle == null || buildShuffle == null || !mayStillBroadcast(buildShuffle, threshold)) {
      return;
    }
    if (isScacheJoinShuffle(streamedShuffle) && createdDependency(streamedShuffle) == null) {
      unnamed[0] = true;
      return;
    }
    int shuffle = scacheShuffleAddedForAJoin(streamedShuffle);
    if (shuffle >= 0) {
      out.computeIfAbsent(shuffle, s -> new ArrayList<>()).add(buildShuffle);
    }
  }

  /** The shuffle a join's child reads (through its sort and adaptive read), staged or not yet; or null. */
  private static ShuffleExchangeLike shuffleOf(SparkPlan child) {
    SparkPlan p = child instanceof SortExec sort ? sort.child() : child;
    p = p instanceof AQEShuffleReadExec read ? read.child() : p;
    if (p instanceof ShuffleQueryStageExec stage) {
      return stage.shuffle();
    }
    return p instanceof ShuffleExchangeLike exchange ? exchange : null;
  }

  /** Whether the shuffle is one added for a join's requirements that SCache may take (created or not). */
  private static boolean isScacheJoinShuffle(ShuffleExchangeLike shuffle) {
    return shuffle instanceof ShuffleExchangeExec exchange && exchange.shuffleOrigin() == ENSURE_REQUIREMENTS$.MODULE$;
  }

  /** The SCache shuffle of {@code shuffle} if it was added for a join's requirements and exists, else -1. */
  static int scacheShuffleAddedForAJoin(ShuffleExchangeLike shuffle) {
    if (!isScacheJoinShuffle(shuffle)) {
      return -1;
    }
    ShuffleDependency<?, ?, ?> dependency = createdDependency(shuffle);
    return dependency != null && dependency.shuffleHandle() instanceof ScacheShuffleHandle<?, ?, ?>
        ? dependency.shuffleId() : -1;
  }

  /** The exchange's shuffle dependency if it was created, without creating it; null if not (or not readable). */
  private static ShuffleDependency<?, ?, ?> createdDependency(ShuffleExchangeLike shuffle) {
    if (DEPENDENCY == null || !(shuffle instanceof ShuffleExchangeExec)) {
      return null;
    }
    try {
      return (ShuffleDependency<?, ?, ?>) DEPENDENCY.get(shuffle);
    } catch (IllegalAccessException | RuntimeException e) {
      return null;
    }
  }

  /** The field behind {@code ShuffleExchangeExec.shuffleDependency}, a lazy value null until made; null if absent. */
  private static Field dependencyField() {
    try {
      Field f = ShuffleExchangeExec.class.getDeclaredField("shuffleDependency");
      f.setAccessible(true);
      return f;
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }

  /** Visits {@code plan}, the plans of its adaptive nodes, its children and its subqueries. */
  static void walk(SparkPlan plan, java.util.function.Consumer<SparkPlan> visit) {
    if (plan instanceof AdaptiveSparkPlanExec adaptive) {
      walk(adaptive.executedPlan(), visit);
      return;
    }
    visit.accept(plan);
    scala.collection.Iterator<SparkPlan> children = plan.children().iterator();
    while (children.hasNext()) {
      walk(children.next(), visit);
    }
    scala.collection.Iterator<SparkPlan> subqueries = plan.subqueries().iterator();
    while (subqueries.hasNext()) {
      walk(subqueries.next(), visit);
    }
  }

  private static boolean buildsLeft(JoinType type) {
    return type instanceof InnerLike || type == RightOuter$.MODULE$;
  }

  private static boolean buildsRight(JoinType type) {
    return type instanceof InnerLike || type == LeftOuter$.MODULE$ || type == LeftSemi$.MODULE$
        || type == LeftAnti$.MODULE$ || type instanceof ExistenceJoin;
  }
}
