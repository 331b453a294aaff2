package org.scache.common.ha;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.scache.common.ScacheException;
import org.scache.common.protocol.Status;

/**
 * The leading master's address, read from its ZooKeeper node and kept until the node changes (a
 * watch) or a call to it fails. Only the plain ZooKeeper client is used, so the one a Hadoop or
 * Spark installation ships serves; the session is opened at the first lookup.
 */
final class ZooKeeperLeader implements Locator {
  private final String quorum;
  private final LeaderPaths paths;
  private final int sessionTimeoutMillis;
  private final Duration connectTimeout;
  private ZooKeeper zk;
  private volatile String cached;
  private volatile boolean closed;

  ZooKeeperLeader(String quorum, String root, Duration sessionTimeout, Duration connectTimeout) {
    this.quorum = quorum;
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
      byte[] data = session().getData(paths.leader(), this::changed, null);
      cached = new String(data, StandardCharsets.UTF_8);
      return cached;
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
