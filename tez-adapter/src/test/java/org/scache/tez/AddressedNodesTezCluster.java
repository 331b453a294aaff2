package org.scache.tez;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.service.Service;
import org.apache.tez.test.MiniTezCluster;
import org.scache.hadoop.AddressedNodes;

/**
 * A MiniTezCluster whose NodeManagers each have an address of their own on the loopback network
 * ({@link AddressedNodes}): YARN's locality tells them apart as it tells machines apart, and each
 * SCache worker advertises its NodeManager's address.
 */
final class AddressedNodesTezCluster extends MiniTezCluster {
  AddressedNodesTezCluster(String name, int nodeManagers) {
    super(name, nodeManagers);
  }

  /** The address of NodeManager {@code index}. */
  static String addressOf(int index) {
    return AddressedNodes.addressOf(index);
  }

  @Override
  public void serviceInit(Configuration conf) throws Exception {
    AddressedNodes.configure(conf);
    super.serviceInit(conf);
  }

  @Override
  protected void addService(Service service) {
    int index = AddressedNodes.indexOf(service);
    if (index >= 0) {
      AddressedNodes.nodeManagers(this)[index] = new AddressedNodeManager(addressOf(index));
    }
    super.addService(service);
  }

  private final class AddressedNodeManager extends CustomNodeManager {
    private final String address;

    AddressedNodeManager(String address) {
      this.address = address;
    }

    @Override
    protected void serviceInit(Configuration conf) throws Exception {
      AddressedNodes.bind(conf, address);
      super.serviceInit(conf);
    }
  }
}
