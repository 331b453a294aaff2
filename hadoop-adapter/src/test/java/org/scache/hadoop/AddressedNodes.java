package org.scache.hadoop;

import java.io.IOException;
import java.lang.reflect.Field;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.service.Service;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.MiniYARNCluster;
import org.apache.hadoop.yarn.server.nodemanager.NodeManager;
import org.scache.common.testing.ListenPorts;

/**
 * Gives each NodeManager of a mini cluster an address of its own on the loopback network,
 * {@code 127.0.0.2}, {@code 127.0.0.3}, ...: each binds there and is known to YARN by it, so YARN's
 * locality tells them apart as it tells machines apart (MiniYARNCluster names them all
 * {@code localhost}), and a request can name any of them. A worker of the SCache auxiliary service
 * listens on and advertises its NodeManager's address (when the worker's own is not configured).
 *
 * <p>MiniYARNCluster sets every NodeManager's addresses itself just before starting it. A cluster class
 * using this calls {@link #configure} on its configuration and {@link #address} from its {@code addService},
 * which replaces each NodeManager MiniYARNCluster is about to wrap with one that binds to its own address.
 * Published in the adapter's test jar for the Tez cluster.
 */
public final class AddressedNodes {
  private AddressedNodes() {}

  /** The address of NodeManager {@code index}. */
  public static String addressOf(int index) {
    return "127.0.0." + (2 + index);
  }

  /**
   * Has the NodeManagers talk to the ResourceManager over RPC (the kind a cluster class creates), which
   * needs the ResourceManager's and the history server's ports before anything starts: free ones outside
   * the ephemeral range ({@link ListenPorts}).
   */
  public static void configure(Configuration conf) throws IOException {
    conf.setBoolean(YarnConfiguration.YARN_MINICLUSTER_USE_RPC, true);
    conf.setBoolean(YarnConfiguration.YARN_MINICLUSTER_FIXED_PORTS, true);
    for (String key : new String[] {YarnConfiguration.RM_ADDRESS, YarnConfiguration.RM_SCHEDULER_ADDRESS,
        YarnConfiguration.RM_RESOURCE_TRACKER_ADDRESS, YarnConfiguration.RM_ADMIN_ADDRESS,
        YarnConfiguration.RM_WEBAPP_ADDRESS, "mapreduce.jobhistory.address", "mapreduce.jobhistory.webapp.address",
        "mapreduce.jobhistory.admin.address"}) {
      conf.set(key, "127.0.0.1:" + ListenPorts.free());
    }
  }

  /**
   * If {@code service} is MiniYARNCluster's wrapper of a NodeManager, replaces that NodeManager, not yet
   * started, with one bound to its own address ({@link #addressOf} its index): RPC, localizer and web.
   */
  public static void address(MiniYARNCluster cluster, Service service) {
    if (!service.getClass().getSimpleName().equals("NodeManagerWrapper")) {
      return;
    }
    int index = (Integer) read(service.getClass(), service, "index");
    String address = addressOf(index);
    NodeManager[] nodeManagers = (NodeManager[]) read(MiniYARNCluster.class, cluster, "nodeManagers");
    nodeManagers[index] = cluster.new CustomNodeManager() {
      @Override
      protected void serviceInit(Configuration conf) throws Exception {
        conf.set(YarnConfiguration.NM_BIND_HOST, address);
        conf.set(YarnConfiguration.NM_ADDRESS, address + ":0");
        conf.set(YarnConfiguration.NM_LOCALIZER_ADDRESS, address + ":0");
        conf.set(YarnConfiguration.NM_WEBAPP_ADDRESS, address + ":0");
        super.serviceInit(conf);
      }
    };
  }

  private static Object read(Class<?> type, Object target, String name) {
    try {
      Field f = type.getDeclaredField(name);
      f.setAccessible(true);
      return f.get(target);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("MiniYARNCluster has no field " + name + " in this Hadoop version", e);
    }
  }
}
