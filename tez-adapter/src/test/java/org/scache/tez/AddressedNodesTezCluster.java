package org.scache.tez;

import java.io.IOException;
import java.lang.reflect.Field;
import java.net.InetAddress;
import java.net.ServerSocket;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.service.Service;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.MiniYARNCluster;
import org.apache.hadoop.yarn.server.nodemanager.NodeManager;
import org.apache.tez.test.MiniTezCluster;

/**
 * A MiniTezCluster whose NodeManagers each have an address of their own on the loopback network,
 * {@code 127.0.0.2}, {@code 127.0.0.3}, ...: each binds there and is known to YARN by it, so YARN's
 * locality tells them apart as it tells machines apart (MiniYARNCluster names them all
 * {@code localhost}). A worker of the SCache auxiliary service listens on and advertises its
 * NodeManager's address.
 *
 * <p>MiniYARNCluster sets every NodeManager's addresses itself just before starting it; the
 * NodeManagers created here put their own address over those.
 */
final class AddressedNodesTezCluster extends MiniTezCluster {
  AddressedNodesTezCluster(String name, int nodeManagers) {
    super(name, nodeManagers);
  }

  /** The address of NodeManager {@code index}. */
  static String addressOf(int index) {
    return "127.0.0." + (2 + index);
  }

  @Override
  public void serviceInit(Configuration conf) throws Exception {
    // NodeManagers that talk to the ResourceManager over RPC, the kind created below; they are
    // configured before the ResourceManager starts, so its ports must be known beforehand
    conf.setBoolean(YarnConfiguration.YARN_MINICLUSTER_USE_RPC, true);
    conf.setBoolean(YarnConfiguration.YARN_MINICLUSTER_FIXED_PORTS, true);
    for (String key : new String[] {YarnConfiguration.RM_ADDRESS, YarnConfiguration.RM_SCHEDULER_ADDRESS,
        YarnConfiguration.RM_RESOURCE_TRACKER_ADDRESS, YarnConfiguration.RM_ADMIN_ADDRESS,
        YarnConfiguration.RM_WEBAPP_ADDRESS}) {
      conf.set(key, "127.0.0.1:" + freePort());
    }
    super.serviceInit(conf);
  }

  @Override
  protected void addService(Service service) {
    if (service.getClass().getSimpleName().equals("NodeManagerWrapper")) {
      int index = (Integer) read(service.getClass(), service, "index");
      NodeManager[] nodeManagers = (NodeManager[]) read(MiniYARNCluster.class, this, "nodeManagers");
      nodeManagers[index] = new AddressedNodeManager(addressOf(index));
    }
    super.addService(service);
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
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

  private final class AddressedNodeManager extends CustomNodeManager {
    private final String address;

    AddressedNodeManager(String address) {
      this.address = address;
    }

    @Override
    protected void serviceInit(Configuration conf) throws Exception {
      conf.set(YarnConfiguration.NM_BIND_HOST, address);
      conf.set(YarnConfiguration.NM_ADDRESS, address + ":0");
      conf.set(YarnConfiguration.NM_LOCALIZER_ADDRESS, address + ":0");
      conf.set(YarnConfiguration.NM_WEBAPP_ADDRESS, address + ":0");
      super.serviceInit(conf);
    }
  }
}
