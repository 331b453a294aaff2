package org.scache.master;

import java.util.HashSet;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.scache.common.ha.LeaderPaths;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes the cluster's nodes in ZooKeeper the masters' before a master takes part in the election. The
 * root, the election's parent and the state's parent are created as persistent nodes with the
 * {@link ClusterAcl} (so the root never empties and vanishes, and nobody else can create it afresh). A
 * root found with another ACL (made by an earlier version, open to all) is given the masters' ACL, then
 * every node under it: a node whose ACL the masters' identity cannot change was not made by the masters
 * and is deleted. A root the identity cannot change at all belongs to someone else, and the master
 * refuses to start.
 */
final class ClusterRoot {
  private static final Logger LOG = LoggerFactory.getLogger(ClusterRoot.class);

  private final CuratorFramework zk;
  private final LeaderPaths paths;
  private final ClusterAcl acl;
  private final ZooKeeperIdentity identity;

  ClusterRoot(CuratorFramework zk, LeaderPaths paths, ClusterAcl acl, ZooKeeperIdentity identity) {
    this.zk = zk;
    this.paths = paths;
    this.acl = acl;
    this.identity = identity;
  }

  /** Creates or takes back the cluster's nodes; fails, saying what to do, when the root is someone else's. */
  void claim() throws Exception {
    String root = paths.root();
    if (!created(root) && !owned(root)) {
      try {
        zk.setACL().withACL(acl.getAclForPath(root)).forPath(root);
      } catch (KeeperException.NoAuthException e) {
        throw new IllegalStateException("the ZooKeeper node " + root + " does not let this cluster's masters ("
            + identity + ") change its ACL, so they cannot keep others from writing the leader's record there: "
            + "remove it as ZooKeeper's super user, or give scache.master.zookeeper.root a path of its own "
            + "(docs/high-availability.md)", e);
      }
      LOG.warn("the ZooKeeper node {} was open to other identities; it and the nodes under it now belong to {}",
          root, identity);
      takeBack(root);
    }
    created(paths.election());
    created(paths.state());
  }

  /** Creates {@code path} as a persistent node if it does not exist; whether it did not. */
  private boolean created(String path) throws Exception {
    try {
      zk.create().creatingParentsIfNeeded().forPath(path);
      return true;
    } catch (KeeperException.NodeExistsException e) {
      return false;
    }
  }

  private boolean owned(String path) throws Exception {
    try {
      return new HashSet<>(zk.getACL().forPath(path)).equals(new HashSet<>(acl.getAclForPath(path)));
    } catch (KeeperException.NoAuthException e) {
      return false;
    }
  }

  private void takeBack(String parent) throws Exception {
    for (String child : zk.getChildren().forPath(parent)) {
      String path = (parent.equals("/") ? "" : parent) + "/" + child;
      try {
        if (!owned(path)) {
          zk.setACL().withACL(acl.getAclForPath(path)).forPath(path);
        }
        takeBack(path);
      } catch (KeeperException.NoAuthException e) {
        remove(path);
      } catch (KeeperException.NoNodeException e) {
        // gone meanwhile
      }
    }
  }

  private void remove(String path) throws Exception {
    try {
      zk.delete().deletingChildrenIfNeeded().forPath(path);
      LOG.warn("deleted the ZooKeeper node {}: it was not made by this cluster's masters ({} cannot change it)",
          path, identity);
    } catch (KeeperException.NoAuthException e) {
      throw new IllegalStateException("the ZooKeeper node " + path + " under this cluster's root belongs to "
          + "another identity than its masters' (" + identity + ") and cannot be deleted by them: remove it as "
          + "ZooKeeper's super user (docs/high-availability.md)", e);
    }
  }
}
