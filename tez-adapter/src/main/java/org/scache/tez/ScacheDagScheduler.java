package org.scache.tez;

import org.apache.hadoop.yarn.event.EventHandler;
import org.apache.tez.dag.api.TezUncheckedException;
import org.apache.tez.dag.app.dag.DAG;
import org.apache.tez.dag.app.dag.impl.AMUserCodeException;
import org.apache.tez.dag.app.dag.impl.DAGImpl;
import org.apache.tez.dag.app.dag.impl.DAGSchedulerNaturalOrder;

/**
 * The configuration switch's entry point: Tez's default DAG scheduler (natural order), named by
 * {@code tez.am.dag.scheduler.class} in tez-site.xml. The application master creates it once per
 * DAG, after the DAG's vertices and edges exist and before any vertex is initialized or any task
 * is scheduled, which is when {@link ScacheDagRewrite} switches the DAG's edges to SCache (when
 * {@code scache.tez.shuffle.enabled} is true) and {@link DagCounters} puts what it decided in the DAG's counters.
 * Scheduling itself is Tez's.
 */
@SuppressWarnings("rawtypes")
public class ScacheDagScheduler extends DAGSchedulerNaturalOrder {

  public ScacheDagScheduler(DAG dag, EventHandler dispatcher) {
    super(dag, dispatcher);
    if (!(dag instanceof DAGImpl impl)) {
      throw new TezUncheckedException("SCache's DAG scheduler needs Tez's DAGImpl, not " + dag.getClass().getName());
    }
    try {
      DagCounters.record(dag, new ScacheDagRewrite(dag, impl.getConf()).apply());
    } catch (AMUserCodeException e) {
      throw new TezUncheckedException("SCache could not switch the edges of DAG " + dag.getName(), e);
    }
  }
}
