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

  @Override
  public void serviceInit(Configuration conf) throws Exception {
    AddressedNodes.configure(conf);
    super.serviceInit(conf);
  }

  @Override
  protected void addService(Service service) {
    AddressedNodes.address(this, service);
    super.addService(service);
  }
}
