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
}
