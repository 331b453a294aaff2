package org.scache.worker.counters;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.scache.common.ShuffleKey;
import org.scache.common.shuffle.ShuffleActivity;

/**
 * What this worker did per shuffle since its last report to the master: bytes prefetched here, bytes
 * its reduces read locally and remotely, and which reduces read here. Drained with each heartbeat; a
 * report that did not reach the master is put back. Holds at most {@value #MAX_READS} reads between
 * two reports, so a master that cannot be reached costs bounded memory. Thread-safe.
 */
public final class ShuffleActivityLog {
  static final int MAX_READS = 100_000;

  private static final class Pending {
    long prefetched;
    long local;
    long remote;
    final List<ShuffleActivity.ReduceRead> reads = new ArrayList<>();
  }

  private final Map<ShuffleKey, Pending> pending = new LinkedHashMap<>();
  private int reads;

  public synchronized void prefetched(ShuffleKey shuffle, long bytes) {
    pending.computeIfAbsent(shuffle, k -> new Pending()).prefetched += bytes;
  }

  /** A reduce's input read through this worker: {@code local} bytes from here, {@code remote} fetched. */
  public synchronized void reduceRead(ShuffleKey shuffle, int reduceId, boolean placementKnown, long local,
      long remote) {
    Pending p = pending.computeIfAbsent(shuffle, k -> new Pending());
    p.local += local;
    p.remote += remote;
    if (reads < MAX_READS) {
      p.reads.add(new ShuffleActivity.ReduceRead(reduceId, placementKnown, local, remote));
      reads++;
    }
  }

  /** Everything recorded since the last drain, and forgets it. */
  public synchronized List<ShuffleActivity> drain() {
    List<ShuffleActivity> out = new ArrayList<>(pending.size());
    pending.forEach((k, p) -> out.add(new ShuffleActivity(k.appId(), k.shuffleId(), p.prefetched, p.local, p.remote,
        p.reads)));
    pending.clear();
    reads = 0;
    return out;
  }

  /** Puts back a drained report that did not reach the master. */
  public synchronized void restore(List<ShuffleActivity> unsent) {
    for (ShuffleActivity a : unsent) {
      ShuffleKey key = new ShuffleKey(a.appId(), a.shuffleId());
      Pending p = pending.computeIfAbsent(key, k -> new Pending());
      p.prefetched += a.prefetchedBytes();
      p.local += a.localReadBytes();
      p.remote += a.remoteReadBytes();
      for (ShuffleActivity.ReduceRead r : a.reads()) {
        if (reads < MAX_READS) {
          p.reads.add(r);
          reads++;
        }
      }
    }
  }

  public synchronized void forgetApplication(String appId) {
    pending.keySet().removeIf(k -> k.appId().equals(appId));
  }
}
