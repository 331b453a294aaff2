package org.scache.master;

import java.util.List;
import org.apache.curator.framework.api.ACLProvider;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;

/**
 * ZooKeeper access for the masters' nodes when they authenticate (scache.master.zookeeper.auth): the
 * kept state (application secrets among it) belongs to the masters' identity alone; the election and
 * the leader's address stay open, since workers and clients read the address without credentials.
 */
final class StateAcl implements ACLProvider {
  private final String stateRoot;

  StateAcl(String stateRoot) {
    this.stateRoot = stateRoot;
  }

  @Override
  public List<ACL> getDefaultAcl() {
    return ZooDefs.Ids.OPEN_ACL_UNSAFE;
  }

  @Override
  public List<ACL> getAclForPath(String path) {
    return path.equals(stateRoot) || path.startsWith(stateRoot + "/") ? ZooDefs.Ids.CREATOR_ALL_ACL
        : ZooDefs.Ids.OPEN_ACL_UNSAFE;
  }
}
