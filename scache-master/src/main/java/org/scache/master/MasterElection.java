package org.scache.master;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.leader.LeaderLatchListener;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.scache.common.DaemonThreads;
import org.scache.common.ha.LeaderPaths;
import org.scache.common.ha.LeaderRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This master's part in the election of a leader among the masters of a cluster (Curator's leader
 * latch). When elected it first takes over (reads the kept state back), then publishes its address
 * at the leader node, where workers and clients look, signed with the cluster secret for the session
 * that owns the node ({@link LeaderRecord}); when it loses the leadership (its ZooKeeper
 * connection is suspended or lost) it stands by at once, before any other master can be elected, and
 * takes part again. Transitions run one at a time on a thread of their own, each checking that the
 * latch still says what it was called for.
 */
final class MasterElection implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(MasterElection.class);

  /** What the master does on each transition. */
  interface Roles {
    /** Elected: build the leading state; the address is published once this returns. */
    void lead() throws Exception;

    /** Not (or no longer) leading: answer NOT_LEADER from now on. */
    void standBy();
  }

  private final CuratorFramework zk;
  private final LeaderPaths paths;
  private final String address;
  private final byte[] clusterSecret;
  private final Roles roles;
  private final ExecutorService transitions = Executors.newSingleThreadExecutor(
      DaemonThreads.named("scache-master-election"));
  private volatile LeaderLatch latch;
  private volatile boolean published;

  MasterElection(CuratorFramework zk, LeaderPaths paths, String address, byte[] clusterSecret, Roles roles) {
    this.zk = zk;
    this.paths = paths;
    this.address = address;
    this.clusterSecret = clusterSecret.clone();
    this.roles = roles;
    this.latch = newLatch();
  }

  private LeaderLatch newLatch() {
    LeaderLatch l = new LeaderLatch(zk, paths.election(), address, LeaderLatch.CloseMode.SILENT);
    l.addListener(new LeaderLatchListener() {
      @Override
      public void isLeader() {
        transitions.execute(MasterElection.this::takeOver);
      }

      @Override
      public void notLeader() {
        transitions.execute(MasterElection.this::stepDown);
      }
    });
    return l;
  }

  void start() throws Exception {
    LOG.info("master {} takes part in the election at {}", address, paths.election());
    latch.start();
  }

  /** Whether the election says this master leads (it may not have taken over yet). */
  boolean holdsLeadership() {
    return latch.hasLeadership();
  }

  /** Whether this master leads and has published its address. */
  boolean leads() {
    return published && latch.hasLeadership();
  }

  /** The address of the leading master, as the election's nodes say; empty when none leads. */
  String leaderAddress() {
    try {
      return LeaderRecord.address(zk.getData().forPath(paths.leader()));
    } catch (Exception e) {
      return "";
    }
  }

  private void takeOver() {
    if (!latch.hasLeadership() || published) {
      return;
    }
    try {
      LOG.info("master {} is elected; reading the state kept in ZooKeeper", address);
      roles.lead();
      publish();
      published = true;
      LOG.info("master {} leads", address);
    } catch (Exception e) {
      LOG.error("master {} was elected but cannot take over; giving the leadership up", address, e);
      roles.standBy();
      rejoin();
    }
  }

  private void stepDown() {
    if (latch.hasLeadership()) {
      return;
    }
    boolean was = published;
    published = false;
    roles.standBy();
    if (was) {
      LOG.warn("master {} lost its leadership and stands by", address);
      unpublish();
    }
  }

  /**
   * Writes this master's record at the leader node, an ephemeral node of its session, signed for that
   * session; a node that turns out to belong to another session (the session changed meanwhile) is
   * written again.
   */
  private void publish() throws Exception {
    for (int tries = 0; ; tries++) {
      try {
        long session = zk.getZookeeperClient().getZooKeeper().getSessionId();
        zk.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL).forPath(paths.leader(),
            LeaderRecord.signed(paths.leader(), address, session, clusterSecret));
        Stat stat = new Stat();
        zk.getData().storingStatIn(stat).forPath(paths.leader());
        if (stat.getEphemeralOwner() == session) {
          return;
        }
        if (tries >= 50) {
          throw new IllegalStateException("the leader node keeps belonging to another ZooKeeper session");
        }
        zk.delete().forPath(paths.leader());
      } catch (KeeperException.NodeExistsException e) {
        // left by a session that is gone or going (a leader elected only after its latch node went)
        if (tries >= 50) {
          throw e;
        }
        try {
          zk.delete().forPath(paths.leader());
        } catch (KeeperException.NoNodeException gone) {
          // deleted meanwhile
        }
      }
    }
  }

  private void unpublish() {
    try {
      byte[] data = zk.getData().forPath(paths.leader());
      if (address.equals(LeaderRecord.address(data))) {
        zk.delete().forPath(paths.leader());
      }
    } catch (Exception e) {
      // its session's end removes it
    }
  }

  /** Leaves the election and enters it again a second later (after a failed takeover), so another master can lead. */
  private void rejoin() {
    try {
      latch.close();
    } catch (Exception e) {
      LOG.debug("closing the leader latch: {}", e.toString());
    }
    transitions.execute(() -> {
      try {
        Thread.sleep(1000);
        latch = newLatch();
        latch.start();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (Exception e) {
        LOG.error("master {} cannot enter the election again: restart it", address, e);
      }
    });
  }

  @Override
  public void close() {
    transitions.shutdownNow();
    try {
      transitions.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    published = false;
    unpublish();
    try {
      latch.close();
    } catch (Exception e) {
      LOG.debug("closing the leader latch: {}", e.toString());
    }
  }
}
