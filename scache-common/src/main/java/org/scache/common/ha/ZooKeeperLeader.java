package org.scache.common.ha;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;
import org.scache.common.ScacheException;
import org.scache.common.protocol.Status;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leading master's address, read from its ZooKeeper node and kept until the node changes (a
 * watch) or a call to it fails. Only the plain ZooKeeper client is used, so the one a Hadoop or
 * Spark installation ships serves; the session is opened at the first lookup.
 *
 * <p>A node is followed only if it shows it was written by the masters. Holding the cluster secret (a
 * daemon), the locator checks the record's proof ({@link LeaderRecord}); without it (a client), it
 * checks that the node is ephemeral and that neither it nor its parent lets an unauthenticated
 * ZooKeeper client write, create or delete there (the masters' ACLs, docs/high-availability.md).
 * Anything else is treated as no leader yet (NOT_LEADER), and said once in the log.
 */
final class ZooKeeperLeader implements Locator {
  private static final Logger LOG = LoggerFactory.getLogger(ZooKeeperLeader.class);
  private static final int OPEN_NODE = ZooDefs.Perms.WRITE | ZooDefs.Perms.ADMIN;
  private static final int OPEN_PARENT = ZooDefs.Perms.CREATE | ZooDefs.Perms.DELETE | ZooDefs.Perms.ADMIN;

  private final String quorum;
  private final LeaderPaths paths;
  private final int sessionTimeoutMillis;
  private final Duration connectTimeout;
  private final Optional<byte[]> clusterSecret;
  private ZooKeeper zk;
  private String lastRefusal = "";
  private volatile String cached;
  private volatile boolean closed;

  /** {@code clusterSecret}: the daemons' secret, with which the leader's record must be signed; empty for a client. */
  ZooKeeperLeader(String quorum, String root, Duration sessionTimeout, Duration connectTimeout,
      Optional<byte[]> clusterSecret) {
    this.quorum = quorum;
    this.clusterSecret = clusterSecret.map(byte[]::clone);
    this.paths = new LeaderPaths(root);
    this.sessionTimeoutMillis = (int) Math.min(Integer.MAX_VALUE, sessionTimeout.toMillis());
    this.connectTimeout = connectTimeout;
  }

  @Override
  public String address() {
    String known = cached;
    return known != null ? known : lookUp();
  }

  private synchronized String lookUp() {
    if (cached != null) {
      return cached;
    }
    if (closed) {
      throw new ScacheException(Status.SHUTTING_DOWN, "the master locator is closed");
    }
    try {
      Stat stat = new Stat();
      byte[] data = session().getData(paths.leader(), this::changed, stat);
      String address = trusted(data, stat);
      cached = address;
      lastRefusal = "";
      return address;
    } catch (KeeperException.NoNodeException e) {
      throw new ScacheException(Status.NOT_LEADER, "no SCache master leads at " + quorum + paths + " yet");
    } catch (KeeperException e) {
      dropSession();
      throw new ScacheException(Status.CONNECTION_FAILED, "cannot read the SCache leader from ZooKeeper at " + quorum
          + ": " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ScacheException(Status.CONNECTION_FAILED, "interrupted while looking up the SCache leader");
    }
  }

  /** The address in the leader node, if the node shows it was written by the masters; else NOT_LEADER. */
  private String trusted(byte[] data, Stat stat) {
    String refusal;
    if (clusterSecret.isPresent()) {
      LeaderRecord.Verdict verdict = LeaderRecord.verify(paths.leader(), data, stat.getEphemeralOwner(),
          clusterSecret.get());
      if (verdict.address().isPresent()) {
        return verdict.address().get();
      }
      refusal = verdict.refusal();
    } else {
      refusal = stat.getEphemeralOwner() == 0 ? "it is not an ephemeral node of a master's session"
          : openTo(paths.leader(), OPEN_NODE, "write or replace it")
              .or(() -> openTo(paths.root(), OPEN_PARENT, "create or delete nodes in its parent")).orElse("");
      if (refusal.isEmpty()) {
        return LeaderRecord.address(data);
      }
    }
    String message = "the leader node " + paths.leader() + " at " + quorum + " names "
        + LeaderRecord.address(data) + ", which is not followed: " + refusal;
    if (!message.equals(lastRefusal)) {
      LOG.warn("{}; it was not written by this cluster's masters (docs/high-availability.md)", message);
      lastRefusal = message;
    }
    throw new ScacheException(Status.NOT_LEADER, message);
  }

  /** Why the node's ACL lets a ZooKeeper client without an identity do any of {@code perms}, if it does. */
  private Optional<String> openTo(String path, int perms, String what) {
    List<ACL> acl;
    try {
      acl = zk.getACL(path, new Stat());
    } catch (KeeperException e) {
      return Optional.of("its ACL cannot be read (" + e.code() + ")");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.of("interrupted while reading its ACL");
    }
    for (ACL entry : acl) {
      String scheme = entry.getId().getScheme();
      if ((scheme.equals("world") || scheme.equals("ip")) && (entry.getPerms() & perms) != 0) {
        return Optional.of(scheme + ":" + entry.getId().getId() + " may " + what);
      }
    }
    return Optional.empty();
  }

  private void changed(WatchedEvent event) {
    if (event.getType() != Watcher.Event.EventType.None) {
      cached = null;
    }
  }

  /** A connected session, opened (again) if needed; fails with CONNECTION_FAILED after the connect timeout. */
  private ZooKeeper session() throws InterruptedException {
    if (zk != null && zk.getState().isAlive() && zk.getState().isConnected()) {
      return zk;
    }
    dropSession();
    CountDownLatch connected = new CountDownLatch(1);
    try {
      zk = new ZooKeeper(quorum, sessionTimeoutMillis, event -> {
        if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
          connected.countDown();
        } else if (event.getState() == Watcher.Event.KeeperState.Expired) {
          cached = null;
        }
      });
    } catch (java.io.IOException | IllegalArgumentException e) {
      throw new ScacheException(Status.CONNECTION_FAILED, "bad ZooKeeper address " + quorum + ": " + e.getMessage());
    }
    if (!connected.await(connectTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
      dropSession();
      throw new ScacheException(Status.CONNECTION_FAILED, "cannot reach ZooKeeper at " + quorum + " within "
          + connectTimeout.toMillis() + " ms to find the SCache leader");
    }
    return zk;
  }

  private void dropSession() {
    if (zk != null) {
      try {
        zk.close();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      zk = null;
    }
  }

  @Override
  public void failed(String address) {
    if (address.equals(cached)) {
      cached = null;
    }
  }

  @Override
  public boolean canMove() {
    return true;
  }

  @Override
  public synchronized void close() {
    closed = true;
    cached = null;
    dropSession();
  }

  @Override
  public String toString() {
    return "the leader at " + quorum + paths;
  }
}
