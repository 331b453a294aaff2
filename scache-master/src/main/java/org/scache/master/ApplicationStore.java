package org.scache.master;

import java.util.Map;

/**
 * Where a master keeps registered applications (with their secrets) and removed ones, so that a
 * restarted or newly elected master still knows who owns an id: a journal in the master's state
 * directory ({@link ApplicationJournal}) or ZooKeeper ({@link ZooKeeperState}). Each change is kept
 * before the request that made it is answered.
 */
interface ApplicationStore extends AutoCloseable {
  /** Reads what the store holds into the two maps. */
  void load(Map<String, byte[]> secrets, Map<String, Long> removedAt);

  void registered(String appId, byte[] secret);

  void removed(String appId, long atMillis);

  /** The tombstone of a removed application has expired. */
  void forgotten(String appId);

  /** Given the live entries, drops what the store no longer needs (a journal rewrites itself). */
  default void compact(Map<String, byte[]> secrets, Map<String, Long> removedAt) {}

  @Override
  void close();
}
