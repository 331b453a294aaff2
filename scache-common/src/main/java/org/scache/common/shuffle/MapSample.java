package org.scache.common.shuffle;

import java.util.List;

/**
 * The sampling result of one map (paper IV-A1): its input size, the reservoir's capacity (s × the
 * number of reduces), and how many sampled records fell in each reduce partition.
 */
public record MapSample(int mapId, long inputBytes, int capacity, List<Integer> countsPerReduce) {
  public MapSample {
    countsPerReduce = List.copyOf(countsPerReduce);
  }
}
