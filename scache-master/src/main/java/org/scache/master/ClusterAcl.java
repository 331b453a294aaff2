package org.scache.master;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.apache.curator.framework.api.ACLProvider;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.scache.common.ha.LeaderPaths;

/**
 * The ACL of every node the masters create, set on their Curator client so that every create path
 * (parents, the election's latch nodes, the leader node, the kept state) gets it: each belongs to the
 * masters' {@link ZooKeeperIdentity} alone. The kept state (application secrets among it) is readable
 * by that identity only; everything else (the root, the election and the leader's record) may also be
 * read by anyone, since workers and clients read the leader's record without credentials, but neither
 * written, created in, deleted nor given another ACL.
 */
final class ClusterAcl implements ACLProvider {
  private final String state;
  private final List<ACL> owned;
  private final List<ACL> readable;

  ClusterAcl(LeaderPaths paths, ZooKeeperIdentity identity) {
    this.state = paths.state();
    ACL all = new ACL(ZooDefs.Perms.ALL, identity.aclId());
    // not List.of: ZooKeeper asks the list whether it contains null, which List.of answers with an exception
    this.owned = Collections.unmodifiableList(Arrays.asList(all));
    this.readable = Collections.unmodifiableList(Arrays.asList(all,
        new ACL(ZooDefs.Perms.READ, ZooDefs.Ids.ANYONE_ID_UNSAFE)));
  }

  @Override
  public List<ACL> getDefaultAcl() {
    return owned;
  }

  @Override
  public List<ACL> getAclForPath(String path) {
    return path.equals(state) || path.startsWith(state + "/") ? owned : readable;
  }
}
