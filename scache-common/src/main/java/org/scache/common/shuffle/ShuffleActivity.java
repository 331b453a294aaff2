package org.scache.common.shuffle;

import java.util.List;

/**
 * What one worker did for one shuffle since its last report: bytes it copied in ahead of the reduces
 * (prefetch), bytes its reduces read from memory here and fetched from other workers, and the reduces
 * whose whole input was read here. Only the status page and metrics read it; the data path does not.
 */
public record ShuffleActivity(String appId, int shuffleId, long prefetchedBytes, long localReadBytes,
    long remoteReadBytes, List<ReduceRead> reads) {

  public ShuffleActivity {
    reads = List.copyOf(reads);
  }

  /**
   * One reduce's input read through this worker.
   *
   * @param placementKnown whether this worker had the shuffle's placement when the read began; a read
   *     that came first ran before SCache could say where it belongs
   */
  public record ReduceRead(int reduceId, boolean placementKnown, long localBytes, long remoteBytes) {}
}
