package org.scache.common;

import java.util.concurrent.ThreadFactory;

/**
 * Threads of SCache's background work (timers, copiers, connectors): named, so a thread dump says
 * whose they are, and daemons, so they never keep a NodeManager, a task or a test JVM alive.
 */
public final class DaemonThreads {
  private DaemonThreads() {}

  /** A factory of daemon threads that all take {@code name}. */
  public static ThreadFactory named(String name) {
    return r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    };
  }
}
