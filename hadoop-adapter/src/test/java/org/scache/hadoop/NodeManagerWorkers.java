package org.scache.hadoop;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Collection;
import java.util.function.IntFunction;
import org.apache.hadoop.yarn.server.nodemanager.NodeManager;
import org.apache.hadoop.yarn.server.nodemanager.containermanager.AuxServices;
import org.scache.common.testing.Await;
import org.scache.master.ScacheMaster;
import org.scache.yarn.ScacheAuxService;

/**
 * Waits for the SCache workers of a mini cluster's NodeManagers to register with the master, and
 * when they do not, says for each NodeManager what its auxiliary service's worker is doing.
 */
public final class NodeManagerWorkers {
  private NodeManagerWorkers() {}

  /** Returns once {@code count} workers are live; throws with every NodeManager's state otherwise. */
  public static void awaitRegistered(ScacheMaster master, IntFunction<NodeManager> nodeManagers, int count,
      Duration timeout) throws InterruptedException {
    Await.until(() -> master.liveWorkers().size() >= count, timeout, () -> {
      StringBuilder sb = new StringBuilder("SCache workers did not register within ").append(timeout.toSeconds())
          .append(" s; live: ").append(master.liveWorkers());
      for (int i = 0; i < count; i++) {
        sb.append("; NodeManager ").append(i).append(": ").append(describe(nodeManagers.apply(i)));
      }
      return sb.toString();
    });
  }

  /** The NodeManager's node id and state, and its worker's address or why it is not running. */
  static String describe(NodeManager nm) {
    if (nm == null) {
      return "not created";
    }
    String node = nm.getNMContext().getNodeId() + " " + nm.getServiceState();
    ScacheAuxService service = scacheService(nm);
    if (service == null) {
      return node + ", no SCache auxiliary service";
    }
    if (service.worker() != null) {
      return node + ", worker " + service.worker().info().address() + (service.worker().isRegistered()
          ? " registered" : " not registered");
    }
    return node + ", worker not running: " + service.startFailure().map(Throwable::toString).orElse("not started");
  }

  static ScacheAuxService scacheService(NodeManager nm) {
    AuxServices aux = nm.getNMContext().getAuxServices();
    if (aux == null) {
      return null;
    }
    try {
      Method services = AuxServices.class.getDeclaredMethod("getServices");
      services.setAccessible(true);
      for (Object s : (Collection<?>) services.invoke(aux)) {
        if (s instanceof ScacheAuxService) {
          return (ScacheAuxService) s;
        }
      }
      return null;
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("AuxServices has no getServices() in this Hadoop version", e);
    }
  }

  /** The counters of each live SCache worker the master lists, by worker id. */
  public static java.util.Map<String, java.util.Map<String, Long>> statsByWorker(ScacheMaster master) {
    java.util.Map<String, java.util.Map<String, Long>> byWorker = new java.util.TreeMap<>();
    for (org.scache.common.WorkerInfo w : master.liveWorkers()) {
      try (org.scache.client.ScacheClient c = org.scache.client.ScacheClient.create(
          org.scache.common.config.ScacheConf.empty()
              .with(org.scache.common.config.ScacheOptions.CLIENT_MASTER_ADDRESS, "127.0.0.1:" + master.port())
              .with(org.scache.common.config.ScacheOptions.CLIENT_WORKER_ADDRESS, w.address()), "stats-reader",
          "unused".getBytes(java.nio.charset.StandardCharsets.UTF_8))) {
        byWorker.put(w.workerId(), c.workerStats());
      }
    }
    return byWorker;
  }

  /** The counters of every live SCache worker, summed. */
  public static java.util.Map<String, Long> summedStats(ScacheMaster master) {
    java.util.Map<String, Long> sum = new java.util.TreeMap<>();
    statsByWorker(master).values().forEach(stats -> stats.forEach((k, v) -> sum.merge(k, v, Long::sum)));
    return sum;
  }
}
