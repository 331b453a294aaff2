package org.scache.benchmarks.tez;

import java.io.IOException;
import java.util.EnumSet;
import java.util.HashMap;
import org.apache.tez.client.TezClient;
import org.apache.tez.dag.api.DAG;
import org.apache.tez.dag.api.TezConfiguration;
import org.apache.tez.dag.api.TezException;
import org.apache.tez.dag.api.client.DAGClient;
import org.apache.tez.dag.api.client.DAGStatus;
import org.apache.tez.dag.api.client.StatusGetOpts;

/**
 * A Tez session client that keeps the client of the last DAG submitted through it, so that the final status and
 * counters of a DAG a stock program's driver submitted (and waited for) can still be read while the session lasts.
 */
final class ObservedTezClient extends TezClient {
  private DAGClient last;

  ObservedTezClient(String name, TezConfiguration conf) {
    super(name, conf, true, new HashMap<>(), null);
  }

  @Override
  public synchronized DAGClient submitDAG(DAG dag) throws TezException, IOException {
    last = super.submitDAG(dag);
    return last;
  }

  /** The final status, with its counters, of the last DAG submitted. */
  synchronized DAGStatus lastStatus() throws TezException, IOException {
    if (last == null) {
      throw new IllegalStateException("no DAG was submitted through this client");
    }
    return last.getDAGStatus(EnumSet.of(StatusGetOpts.GET_COUNTERS));
  }
}
