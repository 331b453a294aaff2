package org.scache.master;

import java.util.HashSet;
import java.util.List;
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
 * the leader node, the election's and the state's nodes are: a node among them whose ACL the masters'
 * identity cannot change was not made by the masters and is deleted (other nodes under the root are left
 * as they are: the masters read none). A root the identity cannot change at all belongs to someone else, and the master
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
    if (root.equals("/")) {
      throw new IllegalArgumentException("scache.master.zookeeper.root must be a path of the SCache cluster's own, "
          + "not ZooKeeper's root /, whose ACL the masters would otherwise take over");
    }
    if (!created(root) && !owned(root)) {
      try {
        zk.setACL().withACL(acl.getAclForPath(root)).forPath(root);
      } catch (KeeperException.NoAuthException e) {
        throw new IllegalStateException("the ZooKeeper node " + root + " does not let this cluster's masters ("
            + identity + ") change its ACL, so they cannot keep others from writing the leader's record there: "
            + "remove it as ZooKeeper's super user, or give scache.master.zookeeper.root a path of its own "
            + "(docs/high-availability.md)", e);
      }
      LOG.warn("the ZooKeeper node {} was open to other identities; it and the masters' nodes under it now belong "
          + "to {}", root, identity);
      for (String path : List.of(paths.leader(), paths.election(), paths.state())) {
        takeBack(path);
      }
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

  /** Gives {@code path} and the nodes under it the masters' ACL, deleting those whose ACL cannot be changed. */
  private void takeBack(String path) throws Exception {
    try {
      if (!owned(path)) {
        zk.setACL().withACL(acl.getAclForPath(path)).forPath(path);
      }
      for (String child : zk.getChildren().forPath(path)) {
        takeBack(path + "/" + child);
      }
    } catch (KeeperException.NoAuthException e) {
      remove(path);
    } catch (KeeperException.NoNodeException e) {
      // not there, or gone meanwhile
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
