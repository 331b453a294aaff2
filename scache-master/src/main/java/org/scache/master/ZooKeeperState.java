package org.scache.master;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.scache.common.ScacheException;
import org.scache.common.ShuffleKey;
import org.scache.common.protocol.MalformedMessageException;
import org.scache.common.protocol.Status;
import org.scache.common.protocol.StoredForms;
import org.scache.common.shuffle.ShufflePlacement;
import org.scache.common.shuffle.ShuffleSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leading master's state in ZooKeeper, for the master elected after it: applications and their
 * secrets, removed applications, and each shuffle's registration and placement, one node each under
 * the cluster's state path. Application ids are base64url-encoded into node names. A write that
 * ZooKeeper does not take fails the request with NOT_LEADER: a master that cannot reach ZooKeeper is
 * about to lose its leadership, and the client looks for the leader again.
 */
final class ZooKeeperState implements ApplicationStore, ShuffleStore {
  private static final Logger LOG = LoggerFactory.getLogger(ZooKeeperState.class);
  private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();
  private static final Base64.Decoder UNB64 = Base64.getUrlDecoder();

  private final CuratorFramework zk;
  private final String applications;
  private final String removed;
  private final String shuffles;
  private final String placements;

  ZooKeeperState(CuratorFramework zk, String stateRoot) {
    this.zk = zk;
    this.applications = stateRoot + "/applications";
    this.removed = stateRoot + "/removed";
    this.shuffles = stateRoot + "/shuffles";
    this.placements = stateRoot + "/placements";
  }

  // ---------------------------------------------------------------- applications

  @Override
  public void load(Map<String, byte[]> secrets, Map<String, Long> removedAt) {
    for (String node : children(applications)) {
      data(applications + "/" + node).ifPresent(secret -> secrets.put(unname(node), secret));
    }
    for (String node : children(removed)) {
      data(removed + "/" + node).ifPresent(at -> {
        try {
          removedAt.put(unname(node), Long.parseLong(new String(at, StandardCharsets.US_ASCII)));
        } catch (NumberFormatException e) {
          LOG.warn("ignoring the removal record {} in ZooKeeper: not a time", node);
        }
      });
    }
  }

  @Override
  public void registered(String appId, byte[] secret) {
    put(applications + "/" + name(appId), secret);
  }

  @Override
  public void removed(String appId, long atMillis) {
    put(removed + "/" + name(appId), Long.toString(atMillis).getBytes(StandardCharsets.US_ASCII));
    delete(applications + "/" + name(appId));
  }

  @Override
  public void forgotten(String appId) {
    delete(removed + "/" + name(appId));
  }

  // ---------------------------------------------------------------- shuffles

  @Override
  public List<Stored> load() {
    List<Stored> found = new ArrayList<>();
    for (String app : children(shuffles)) {
      for (String id : children(shuffles + "/" + app)) {
        Optional<byte[]> spec = data(shuffles + "/" + app + "/" + id);
        if (spec.isEmpty()) {
          continue;
        }
        try {
          Optional<byte[]> placed = data(placements + "/" + app + "/" + id);
          found.add(new Stored(StoredForms.spec(spec.get()),
              placed.isEmpty() ? Optional.empty() : Optional.of(StoredForms.placement(placed.get()))));
        } catch (MalformedMessageException e) {
          LOG.warn("ignoring shuffle {} of {} kept in ZooKeeper: {}", id, unname(app), e.getMessage());
        }
      }
    }
    return found;
  }

  @Override
  public void registered(ShuffleSpec spec) {
    put(shuffles + "/" + name(spec.appId()) + "/" + spec.shuffleId(), StoredForms.spec(spec));
  }

  @Override
  public void placed(ShufflePlacement placement) {
    put(placements + "/" + name(placement.appId()) + "/" + placement.shuffleId(), StoredForms.placement(placement));
  }

  @Override
  public void removed(ShuffleKey key) {
    delete(placements + "/" + name(key.appId()) + "/" + key.shuffleId());
    delete(shuffles + "/" + name(key.appId()) + "/" + key.shuffleId());
  }

  @Override
  public void applicationRemoved(String appId) {
    delete(placements + "/" + name(appId));
    delete(shuffles + "/" + name(appId));
  }

  @Override
  public void close() {
    // the ZooKeeper client belongs to the master
  }

  // ---------------------------------------------------------------- ZooKeeper

  private void put(String path, byte[] data) {
    try {
      try {
        zk.create().creatingParentContainersIfNeeded().forPath(path, data);
      } catch (KeeperException.NodeExistsException e) {
        zk.setData().forPath(path, data);
      }
    } catch (Exception e) {
      throw unavailable("keep " + path, e);
    }
  }

  private void delete(String path) {
    try {
      zk.delete().guaranteed().deletingChildrenIfNeeded().forPath(path);
    } catch (KeeperException.NoNodeException e) {
      // already gone
    } catch (Exception e) {
      throw unavailable("delete " + path, e);
    }
  }

  private List<String> children(String path) {
    try {
      return zk.getChildren().forPath(path);
    } catch (KeeperException.NoNodeException e) {
      return List.of();
    } catch (Exception e) {
      throw unavailable("list " + path, e);
    }
  }

  private Optional<byte[]> data(String path) {
    try {
      return Optional.of(zk.getData().forPath(path));
    } catch (KeeperException.NoNodeException e) {
      return Optional.empty();
    } catch (Exception e) {
      throw unavailable("read " + path, e);
    }
  }

  private static ScacheException unavailable(String what, Exception e) {
    if (e instanceof InterruptedException) {
      Thread.currentThread().interrupt();
    }
    return new ScacheException(Status.NOT_LEADER, "this master cannot " + what + " in ZooKeeper (" + e
        + "), so it cannot lead");
  }

  private static String name(String appId) {
    return B64.encodeToString(appId.getBytes(StandardCharsets.UTF_8));
  }

  private static String unname(String node) {
    return new String(UNB64.decode(node), StandardCharsets.UTF_8);
  }
}
