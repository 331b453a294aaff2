package org.scache.spark;

import java.time.Duration;
import java.util.function.Supplier;
import org.scache.client.BlockBuffers;
import org.scache.client.ScacheClient;
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
 * this one (its driver registers it as its context starts, on a thread of its own, which an executor may start
 * before), the opener tries again after {@link #FIRST_RETRY}, twice as long each time, {@link #RETRIES} times at
 * most (6.3 s in all): a few requests an executor, whatever became of its application's registration. Any other
 * failure is left to the first task, which opens the path again and meets it where the task's user sees it.
 */
final class ExecutorPathOpener implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(ExecutorPathOpener.class);
  static final Duration FIRST_RETRY = Duration.ofMillis(100);
  static final int RETRIES = 6;

  /** Waits between tries: {@link Thread#sleep} in an executor, something faster in a test. */
  interface Pause {
    void pause(Duration d) throws InterruptedException;
  }

  private final BlockBuffers chunks;
  private final Supplier<ScacheClient> client;
  private final Pause pause;

  ExecutorPathOpener(BlockBuffers chunks, Supplier<ScacheClient> client, Pause pause) {
    this.chunks = chunks;
    this.client = client;
    this.pause = pause;
  }

  @Override
  public void run() {
    chunks.prepare();
    Duration wait = FIRST_RETRY;
    for (int tried = 0; ; tried++) {
      try {
        client.get().openWorkerPath().join();
        LOG.debug("the path to this node's SCache worker is open");
        return;
      } catch (RuntimeException e) {
        ScacheException se = ScacheException.from(e);
        if (se.status() != Status.UNKNOWN_APPLICATION || tried == RETRIES) {
          LOG.debug("the path to this node's SCache worker was not opened ahead; the first task opens it: {}",
              se.getMessage());
          return;
        }
      }
      try {
        pause.pause(wait);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      wait = wait.multipliedBy(2);
    }
  }
}
