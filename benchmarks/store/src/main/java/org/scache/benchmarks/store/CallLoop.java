package org.scache.benchmarks.store;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntFunction;
import org.scache.dist.Throughput;

/**
 * Issues numbered async calls back to back with a fixed number in flight, for a warm-up and then a
 * measured time (or until a call budget runs out), and measures the bytes the completed calls
 * moved. One in flight is the synchronous case.
 */
final class CallLoop {
  private CallLoop() {}

  /**
   * Runs {@code call(0)}, {@code call(1)}, ... at most {@code maxCalls} of them, each moving
   * {@code bytesPerCall}; calls completing in the measured window are counted.
   */
  static Throughput run(int inFlight, Duration warmup, Duration measured, int maxCalls, long bytesPerCall,
      IntFunction<CompletableFuture<?>> call) {
    ArrayDeque<CompletableFuture<?>> window = new ArrayDeque<>(inFlight);
    long warmEnd = System.nanoTime() + warmup.toNanos();
    long start = -1;
    long deadline = Long.MAX_VALUE;
    long counted = 0;
    int issued = 0;
    while (true) {
      long now = System.nanoTime();
      if (start < 0 && now >= warmEnd) {
        start = now;
        deadline = start + measured.toNanos();
      }
      boolean issuing = issued < maxCalls && now < deadline;
      if (issuing && window.size() < inFlight) {
        window.add(call.apply(issued++));
        continue;
      }
      if (window.isEmpty()) {
        break;
      }
      window.poll().join();
      if (start >= 0) {
        counted++;
      }
    }
    long end = System.nanoTime();
    if (start < 0) {
      // the call budget ran out during the warm-up: nothing was measured
      return Throughput.NONE;
    }
    return new Throughput(counted * bytesPerCall, counted, end - start);
  }
}
