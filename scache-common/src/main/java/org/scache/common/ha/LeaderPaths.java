package org.scache.common.ha;

/**
 * The ZooKeeper nodes of one SCache cluster under its root: the election's latch, the leader's
 * address (an ephemeral node the leader writes once it is ready to serve), and the masters' state.
 */
public final class LeaderPaths {
  private final String root;

  public LeaderPaths(String root) {
    if (!root.startsWith("/") || (root.length() > 1 && root.endsWith("/"))) {
      throw new IllegalArgumentException("a ZooKeeper root is an absolute path without a trailing '/': " + root);
    }
    this.root = root.equals("/") ? "" : root;
  }

  /** The cluster's root node, the parent of every other. */
  public String root() {
    return root.isEmpty() ? "/" : root;
  }

  /** The parent of the masters' election nodes. */
  public String election() {
    return root + "/election";
  }

  /** The ephemeral node holding the leader's host:port, signed ({@link LeaderRecord}). */
  public String leader() {
    return root + "/leader";
  }

  /** The parent of the state a new leader reads back. */
  public String state() {
    return root + "/state";
  }

  @Override
  public String toString() {
    return root();
  }
}
