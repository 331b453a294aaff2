package org.scache.worker.cluster;

import java.util.List;
import org.scache.common.shuffle.BlockLocation;

/**
 * Where the master says a reduce's blocks are: how many maps the shuffle has, how many of them have
 * finished, and the holder of each finished map's final block.
 */
public record LocatedBlocks(int numMaps, int finishedMaps, List<BlockLocation> locations) {
  public LocatedBlocks {
    locations = List.copyOf(locations);
  }

  /** Whether every map of the shuffle has finished, so that the locations are the reduce's whole input. */
  public boolean complete() {
    return finishedMaps >= numMaps;
  }
}
