package org.scache.common.ha;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.scache.common.config.ConfigEntry;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;

/**
 * Where a peer is now: a fixed host:port, or the master that currently leads, as published in
 * ZooKeeper. A caller asks for the address before each call and reports an address that failed
 * it, so that the next call looks again.
 */
public interface Locator extends AutoCloseable {
  /**
   * The peer's host:port.
   *
   * @throws org.scache.common.ScacheException NOT_LEADER when no master leads yet (transient)
   */
  String address();

  /** The call to {@code address} failed as if the peer were gone or no longer leads: look again next time. */
  default void failed(String address) {}

  /** Whether the peer can move (a leader that fails over), so that callers wait for it to come back. */
  default boolean canMove() {
    return false;
  }

  @Override
  default void close() {}

  static Locator fixed(String address) {
    return new Locator() {
      @Override
      public String address() {
        return address;
      }

      @Override
      public String toString() {
        return address;
      }
    };
  }

  /** How to name the master in a message: its fixed address, or where its leader is registered. */
  static String describeMaster(ScacheConf conf, ConfigEntry<String> fixedKey) {
    String quorum = conf.get(ScacheOptions.MASTER_ZOOKEEPER_QUORUM);
    return quorum.isEmpty() ? conf.get(fixedKey)
        : "(the leader registered in ZooKeeper at " + quorum
        + new LeaderPaths(conf.get(ScacheOptions.MASTER_ZOOKEEPER_ROOT)) + ")";
  }

  /**
   * The master: the leader registered in ZooKeeper when {@code scache.master.zookeeper.quorum} is set,
   * else the fixed address under {@code fixedKey}. With {@code scache.security.cluster.secret} set (a
   * worker), only a leader record signed with it is followed; without (a client), only one in a node
   * that unauthenticated ZooKeeper clients cannot write ({@link ZooKeeperLeader}).
   */
  static Locator master(ScacheConf conf, ConfigEntry<String> fixedKey) {
    String quorum = conf.get(ScacheOptions.MASTER_ZOOKEEPER_QUORUM);
    if (quorum.isEmpty()) {
      return fixed(conf.get(fixedKey));
    }
    String secret = conf.get(ScacheOptions.SECURITY_CLUSTER_SECRET);
    return new ZooKeeperLeader(quorum, conf.get(ScacheOptions.MASTER_ZOOKEEPER_ROOT),
        conf.get(ScacheOptions.MASTER_ZOOKEEPER_SESSION_TIMEOUT), conf.get(ScacheOptions.NETWORK_CONNECT_TIMEOUT),
        secret.isEmpty() ? Optional.empty() : Optional.of(secret.getBytes(StandardCharsets.UTF_8)));
  }
}
