package org.scache.common.network;

/**
 * How a client talks to the master and the workers. The process that makes the client chooses, by
 * what it is: it is not a configuration key.
 */
public enum ClientTransport {
  /**
   * Netty event loops, many calls in flight on one connection: for long-lived processes that make many
   * calls at once (Spark executors and drivers, daemons, tools).
   */
  NETTY,
  /**
   * Each call written and answered in the calling thread, one at a time per connection, with no threads
   * and a fraction of Netty's classes to load: for short-lived processes that make a few calls
   * (MapReduce and Tez tasks and application masters, the check of the master at an application's start).
   */
  BLOCKING
}
