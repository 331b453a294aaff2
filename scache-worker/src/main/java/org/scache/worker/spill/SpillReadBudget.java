package org.scache.worker.spill;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.scache.common.Checks;

/**
 * Bounds the memory that blocks read back from spill files (and puts received on their way to
 * disk) take outside the reserve: a read takes
 * its block's size from the budget (a block larger than the whole budget takes all of it) and gives
 * it back when its buffer is released. Reads that do not fit wait, first come first served.
 */
public final class SpillReadBudget {
  private record Waiter(long bytes, CompletableFuture<Long> granted) {}

  private final long capacity;
  private final ArrayDeque<Waiter> waiting = new ArrayDeque<>();
  private long available;

  public SpillReadBudget(long capacity) {
    Checks.require(capacity > 0, "spill read budget must be positive: %s", capacity);
    this.capacity = capacity;
    this.available = capacity;
  }

  /** Completes with the bytes taken once {@code bytes} (at most the whole budget) are available. */
  public CompletableFuture<Long> acquire(long bytes) {
    long n = Math.min(bytes, capacity);
    synchronized (this) {
      if (waiting.isEmpty() && available >= n) {
        available -= n;
        return CompletableFuture.completedFuture(n);
      }
      Waiter w = new Waiter(n, new CompletableFuture<>());
      waiting.add(w);
      return w.granted();
    }
  }

  /** Takes {@code bytes} (at most the whole budget) if available now and nobody waits; else -1. */
  public synchronized long tryAcquire(long bytes) {
    long n = Math.min(bytes, capacity);
    if (waiting.isEmpty() && available >= n) {
      available -= n;
      return n;
    }
    return -1;
  }

  /** Gives back {@code bytes} taken by {@link #acquire}. */
  public void release(long bytes) {
    List<Waiter> ready = new ArrayList<>();
    synchronized (this) {
      available += bytes;
      while (!waiting.isEmpty() && waiting.peek().bytes() <= available) {
        Waiter w = waiting.poll();
        available -= w.bytes();
        ready.add(w);
      }
    }
    ready.forEach(w -> w.granted().complete(w.bytes()));
  }

  public synchronized long inUse() {
    return capacity - available;
  }

  long capacity() {
    return capacity;
  }
}
