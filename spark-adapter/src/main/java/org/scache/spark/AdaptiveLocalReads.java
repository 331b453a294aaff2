package org.scache.spark;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.spark.network.util.JavaUtils;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerEvent;
import org.apache.spark.scheduler.SparkListenerStageSubmitted;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.sql.catalyst.optimizer.BuildRight$;
import org.apache.spark.sql.execution.QueryExecution;
import org.apache.spark.sql.execution.SQLExecution;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.adaptive.AQEShuffleReadExec;
import org.apache.spark.sql.execution.adaptive.ShuffleQueryStageExec;
import org.apache.spark.sql.execution.exchange.ShuffleExchangeLike;
import org.apache.spark.sql.execution.joins.BroadcastHashJoinExec;
import org.apache.spark.sql.execution.ui.SparkListenerSQLAdaptiveExecutionUpdate;
import org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionEnd;
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
 *
 * <p>Where the small side's maps end after the large side's, that is too late: the large side's blocks were copied
 * while its maps ran. So, unless {@code spark.scache.adaptive.hold.copies} is off, the workers hold back the copies of
 * a shuffled join's side while the other side could still be broadcast ({@link BroadcastCandidates}), and let them go
 * once it has written more than adaptive execution's broadcast threshold (checked as tasks end and at plan updates),
 * or a stage reading the shuffle by reduce is submitted ({@link PlacedLocations}): a side that ended small but was not
 * broadcast after all (adaptive execution demotes a side of mostly empty partitions) is copied only then.
 */
final class AdaptiveLocalReads extends SparkListener {
  private static final Logger LOG = LoggerFactory.getLogger(AdaptiveLocalReads.class);
  private static final String LOCAL_READS_KEY = "spark.sql.adaptive.localShuffleReader.enabled";
  private static final String UPDATE_EVENT =
      "org.apache.spark.sql.execution.ui.SparkListenerSQLAdaptiveExecutionUpdate";

  private static final String ADAPTIVE_THRESHOLD_KEY = "spark.sql.adaptive.autoBroadcastJoinThreshold";
  private static final String THRESHOLD_KEY = "spark.sql.autoBroadcastJoinThreshold";
  private static final String DEFAULT_THRESHOLD = "10m";

  /** The other sides of a held shuffle's joins that could still be broadcast, and the threshold they are held to. */
  private record Held(List<ShuffleExchangeLike> builds, long threshold) {}

  private final ScacheShuffleManager manager;
  private final boolean holdCopies;
  /** The shuffles whose copies this listener holds back; read and written on the listener bus's thread only. */
  private final Map<Integer, Held> held = new HashMap<>();
  /** The executions whose plans have joins' streamed sides with no shuffle yet; on the listener bus's thread. */
  private final Map<Long, QueryExecution> unnamed = new HashMap<>();

  AdaptiveLocalReads(ScacheShuffleManager manager, boolean holdCopies) {
    this.manager = manager;
    this.holdCopies = holdCopies;
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
    if (event instanceof SparkListenerSQLExecutionEnd executionEnd) {
      unnamed.remove(executionEnd.executionId());
      return;
    }
    if (!(event instanceof SparkListenerSQLAdaptiveExecutionUpdate update)) {
      return;
    }
    try {
      QueryExecution qe = SQLExecution.getQueryExecution(update.executionId());
      if (qe == null || !Boolean.parseBoolean(qe.sparkSession().conf().get(LOCAL_READS_KEY, "true"))) {
        return;
      }
      for (int shuffleId : probeSidesOfBroadcastJoins(qe.executedPlan())) {
        held.remove(shuffleId);
        manager.readInPlace(shuffleId, "as adaptive execution re-planned a join into a broadcast join");
      }
      if (holdCopies) {
        holdOrRelease(qe, update.executionId());
      }
    } catch (RuntimeException | LinkageError e) {
      // a plan of a shape or Spark version not read here: the stage's submission still says it
      LOG.debug("cannot read adaptive execution's plan of execution {}: {}", update.executionId(), e.toString());
    }
  }

  /**
   * Holds back the copies of each shuffle a shuffled join of the plan streams while its other side could still be
   * broadcast; lets go those of this plan held before whose joins no longer could be (the other side wrote too much).
   * A plan whose streamed sides are not all named yet is looked at again as stages are submitted.
   */
  private void holdOrRelease(QueryExecution qe, long executionId) {
    long threshold = broadcastThreshold(qe);
    BroadcastCandidates.Found found = BroadcastCandidates.of(qe.executedPlan(), threshold);
    for (Map.Entry<Integer, List<ShuffleExchangeLike>> c : found.candidates().entrySet()) {
      manager.holdCopies(c.getKey(), "while adaptive execution may still broadcast the other side of its join (SQL "
          + "execution " + executionId + ") and read it where its maps ran");
      if (manager.copiesHeld(c.getKey())) {
        held.put(c.getKey(), new Held(c.getValue(), threshold));
      }
    }
    if (found.unnamed()) {
      unnamed.put(executionId, qe);
    } else {
      unnamed.remove(executionId);
    }
    // the held shuffles of other executions are looked at in their own updates
    Set<Integer> ofThisPlan = BroadcastCandidates.joinShufflesOf(qe.executedPlan());
    held.keySet().removeIf(shuffle -> {
      if (found.candidates().containsKey(shuffle) || !ofThisPlan.contains(shuffle)) {
        return false;
      }
      manager.releaseCopies(shuffle, "as the other side of its join wrote more than adaptive execution broadcasts");
      return true;
    });
  }

  /** A stage was submitted: the plans whose joins' streamed sides had no shuffle yet may have them now. */
  @Override
  public void onStageSubmitted(SparkListenerStageSubmitted submitted) {
    if (unnamed.isEmpty()) {
      return;
    }
    for (Map.Entry<Long, QueryExecution> e : new ArrayList<>(unnamed.entrySet())) {
      try {
        holdOrRelease(e.getValue(), e.getKey());
      } catch (RuntimeException | LinkageError ex) {
        unnamed.remove(e.getKey());
        LOG.debug("cannot read adaptive execution's plan of execution {}: {}", e.getKey(), ex.toString());
      }
    }
  }

  /**
   * Lets go the copies of each held shuffle none of whose joins' other sides can be broadcast any more: each has
   * written more than the threshold, which its tasks' ends tell.
   */
  @Override
  public void onTaskEnd(SparkListenerTaskEnd end) {
    if (held.isEmpty()) {
      return;
    }
    try {
      held.entrySet().removeIf(e -> {
        if (!manager.copiesHeld(e.getKey())) {
          return true;
        }
        for (ShuffleExchangeLike build : e.getValue().builds()) {
          if (BroadcastCandidates.mayStillBroadcast(build, e.getValue().threshold())) {
            return false;
          }
        }
        manager.releaseCopies(e.getKey(), "as the other side of its join wrote more than adaptive execution "
            + "broadcasts (" + e.getValue().threshold() + " bytes)");
        return true;
      });
    } catch (RuntimeException | LinkageError e) {
      LOG.debug("cannot tell whether a held shuffle's join may still be broadcast: {}", e.toString());
    }
  }

  /** Adaptive execution's broadcast threshold in the query's session; -1 when it broadcasts nothing. */
  static long broadcastThreshold(QueryExecution qe) {
    org.apache.spark.sql.RuntimeConfig conf = qe.sparkSession().conf();
    String value = conf.getOption(ADAPTIVE_THRESHOLD_KEY).getOrElse(() -> conf.get(THRESHOLD_KEY, DEFAULT_THRESHOLD))
        .trim();
    return value.startsWith("-") ? -1 : JavaUtils.byteStringAsBytes(value);
  }

  /** The SCache shuffles on the streamed side of a broadcast hash join in {@code plan}, its subqueries included. */
  static Set<Integer> probeSidesOfBroadcastJoins(SparkPlan plan) {
    Set<Integer> shuffles = new LinkedHashSet<>();
    BroadcastCandidates.walk(plan, p -> {
      if (p instanceof BroadcastHashJoinExec join) {
        int shuffle = scacheShuffleRead(join.buildSide() == BuildRight$.MODULE$ ? join.left() : join.right());
        if (shuffle >= 0) {
          shuffles.add(shuffle);
        }
      }
    });
    return shuffles;
  }

  /** The SCache shuffle {@code plan} reads if it is a shuffle stage added for a join's requirements, else -1. */
  private static int scacheShuffleRead(SparkPlan plan) {
    SparkPlan stage = plan instanceof AQEShuffleReadExec read ? read.child() : plan;
    return stage instanceof ShuffleQueryStageExec s ? BroadcastCandidates.scacheShuffleAddedForAJoin(s.shuffle()) : -1;
  }
}
