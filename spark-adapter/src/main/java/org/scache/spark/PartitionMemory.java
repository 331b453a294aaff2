package org.scache.spark;

import org.apache.spark.memory.MemoryConsumer;
import org.apache.spark.memory.MemoryMode;
import org.apache.spark.memory.TaskMemoryManager;

/**
 * The execution memory a map task's partition buffers may take, acquired from Spark's task memory
 * manager as Spark's own buffers are: a buffer that cannot get more writes the rest of its bytes to
 * a local file instead ({@link PartitionBlockWriter}). Unlimited when built without a manager.
 */
final class PartitionMemory {
  private static final long CHUNK = 1L << 20;

  /** Where the memory comes from: grants at most what is asked, and takes back what was granted. */
  interface Source {
    long acquire(long bytes);

    void free(long bytes);
  }

  private final Source consumer;
  private long acquired;
  private long used;

  private PartitionMemory(Source consumer) {
    this.consumer = consumer;
  }

  /** No limit: every byte stays in memory. */
  static PartitionMemory unlimited() {
    return new PartitionMemory(null);
  }

  /** Memory of the task {@code manager} serves, acquired 1 MiB at a time. */
  static PartitionMemory of(TaskMemoryManager manager) {
    Consumer c = new Consumer(manager);
    return new PartitionMemory(new Source() {
      @Override
      public long acquire(long bytes) {
        return c.acquireMemory(bytes);
      }

      @Override
      public void free(long bytes) {
        c.freeMemory(bytes);
      }
    });
  }

  /** Memory from {@code source}: for tests. */
  static PartitionMemory from(Source source) {
    return new PartitionMemory(source);
  }

  /** Whether {@code bytes} more may be held in memory; if so they are counted as held. */
  boolean reserve(long bytes) {
    if (consumer == null) {
      return true;
    }
    if (acquired - used < bytes) {
      acquired += consumer.acquire(Math.max(bytes, CHUNK));
    }
    if (acquired - used < bytes) {
      return false;
    }
    used += bytes;
    return true;
  }

  /** Gives back {@code bytes} held (a buffer that was put). */
  void release(long bytes) {
    used -= Math.min(bytes, used);
  }

  /** Gives every byte acquired back to the task's memory manager. */
  void close() {
    if (consumer != null && acquired > 0) {
      consumer.free(acquired);
      acquired = 0;
      used = 0;
    }
  }

  private static final class Consumer extends MemoryConsumer {
    Consumer(TaskMemoryManager manager) {
      super(manager, manager.pageSizeBytes(), MemoryMode.ON_HEAP);
    }

    @Override
    public long spill(long size, MemoryConsumer trigger) {
      // the buffers cannot give memory back before they are put; a buffer that cannot grow goes to disk
      return 0;
    }
  }
}
