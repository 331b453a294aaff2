package org.scache.tez;

import java.lang.reflect.Field;
import org.apache.tez.common.counters.TezCounters;
import org.apache.tez.dag.app.dag.DAG;
import org.apache.tez.dag.app.dag.impl.DAGImpl;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The DAG's own counters, where the configuration switch says what it decided ({@code ScacheTezCounter.DAG_*}), so
 * that a DAG's client, Tez's UI and its history show it beside the tasks' counters. Tez lets a DAG scheduler
 * increment only Tez's own DAG counters ({@code DAG.incrementDagCounter}); the counters
 * {@code DAGImpl} adds to every task's are its {@code dagCounters}, reached here as {@link ConsumerManagers} reaches
 * a vertex's plan. Where that field is missing the decision is in the application master's log only, with a warning.
 */
final class DagCounters {
  private static final Logger LOG = LoggerFactory.getLogger(DagCounters.class);
  private static final Field COUNTERS = countersField();

  private DagCounters() {}

  /** Writes {@code outcome} into {@code dag}'s counters; nothing when the switch was off. */
  static void record(DAG dag, ScacheDagRewrite.Outcome outcome) {
    if (outcome.equals(ScacheDagRewrite.Outcome.NOT_SWITCHED)) {
      return;
    }
    TezCounters counters = of(dag);
    if (counters == null) {
      LOG.warn("SCache: DAG {} [{}]: its counters ({}) cannot be reached, so they do not show which edges go through "
          + "SCache; the log above does", dag.getName(), dag.getID(), dag.getClass().getName());
      return;
    }
    counters.findCounter(ScacheTezCounter.DAG_EDGES_THROUGH_SCACHE).increment(outcome.throughScache());
    counters.findCounter(ScacheTezCounter.DAG_EDGES_ON_TEZ_SHUFFLE).increment(outcome.onTez());
    counters.findCounter(ScacheTezCounter.DAG_SCACHE_UNUSABLE).increment(outcome.scacheUnusable() ? 1 : 0);
  }

  private static TezCounters of(DAG dag) {
    if (COUNTERS == null || !COUNTERS.getDeclaringClass().isInstance(dag)) {
      return null;
    }
    try {
      return (TezCounters) COUNTERS.get(dag);
    } catch (IllegalAccessException | ClassCastException e) {
      return null;
    }
  }

  private static Field countersField() {
    try {
      Field f = DAGImpl.class.getDeclaredField("dagCounters");
      f.setAccessible(true);
      return TezCounters.class.isAssignableFrom(f.getType()) ? f : null;
    } catch (NoSuchFieldException | RuntimeException e) {
      return null;
    }
  }
}
