package org.scache.spark;

import java.time.Duration;
import java.util.function.Supplier;
import org.scache.client.BlockBuffers;
import org.scache.client.ScacheClient;
import org.scache.common.Clock;
import org.scache.common.ScacheException;
import org.scache.common.protocol.Status;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens an executor's path to its node's SCache worker before the executor's first task needs it: the allocator of
 * the map tasks' partition chunks, the client, its connection to the worker and the worker's shared memory. Without
 * it the first task of an executor does all of this (a few hundred milliseconds in a JVM that has just started)
 * while the executor's other first tasks wait for it.
 *
 * <p>The worker opens its memory only to an application the master knows: while it answers that it does not know
 * this one (its driver registers it as its context starts, on a thread of its own), the opener tries again every
 * {@link #RETRY_INTERVAL}, for at most {@link #UNKNOWN_APPLICATION_RETRY}. Any other failure is left to the first
 * task, which opens the path again and meets it where the task's user sees it.
 */
final class ExecutorPathOpener implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(ExecutorPathOpener.class);
  static final Duration RETRY_INTERVAL = Duration.ofMillis(100);
  static final Duration UNKNOWN_APPLICATION_RETRY = Duration.ofSeconds(30);

  private final BlockBuffers chunks;
  private final Supplier<ScacheClient> client;
  private final Clock clock;

  ExecutorPathOpener(BlockBuffers chunks, Supplier<ScacheClient> client, Clock clock) {
    this.chunks = chunks;
    this.client = client;
    this.clock = clock;
  }

  @Override
  public void run() {
    chunks.prepare();
    long deadline = clock.nanos() + UNKNOWN_APPLICATION_RETRY.toNanos();
    while (true) {
      try {
        client.get().openWorkerPath().join();
        LOG.debug("the path to this node's SCache worker is open");
        return;
      } catch (RuntimeException e) {
        ScacheException se = ScacheException.from(e);
        if (se.status() != Status.UNKNOWN_APPLICATION || clock.nanos() - deadline >= 0) {
          LOG.debug("the path to this node's SCache worker was not opened ahead; the first task opens it: {}",
              se.getMessage());
          return;
        }
      }
      try {
        Thread.sleep(RETRY_INTERVAL.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}
