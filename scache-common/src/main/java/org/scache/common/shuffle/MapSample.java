package org.scache.common.shuffle;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The sampling result of one map (paper IV-A1): its input size, the reservoir's capacity (s × the
 * number of reduces), how many sampled records fell in each reduce partition, and the host the map
 * is expected to run on, when the framework knows it (where its input is, or where its sample was
 * taken), so that the placement can keep reduces beside the maps that feed them most.
 */
public record MapSample(int mapId, long inputBytes, int capacity, List<Integer> countsPerReduce,
    Optional<String> expectedHost) {
  public MapSample {
    countsPerReduce = List.copyOf(countsPerReduce);
    Objects.requireNonNull(expectedHost, "expectedHost");
  }

  /** A sample without an expected host. */
  public MapSample(int mapId, long inputBytes, int capacity, List<Integer> countsPerReduce) {
    this(mapId, inputBytes, capacity, countsPerReduce, Optional.empty());
  }
}
