package org.scache.spark;

import org.apache.spark.ShuffleDependency;
import org.apache.spark.shuffle.BaseShuffleHandle;

/**
 * The handle of a shuffle that goes through SCache. The driver decides once, when the application
 * starts, whether SCache is used; the handle carries that decision to the executors' writers and
 * readers, so that driver and executors always agree.
 */
public final class ScacheShuffleHandle<K, V, C> extends BaseShuffleHandle<K, V, C> {
  private static final long serialVersionUID = 1L;

  private final String appId;
  private final int numMaps;

  ScacheShuffleHandle(int shuffleId, ShuffleDependency<K, V, C> dependency, String appId, int numMaps) {
    super(shuffleId, dependency);
    this.appId = appId;
    this.numMaps = numMaps;
  }

  /** The SCache application the shuffle's blocks belong to. */
  public String appId() {
    return appId;
  }

  /**
   * The number of map tasks (partitions of the map side's RDD); each is one SCache map, its map index the
   * map's id, its output put when the task ends.
   */
  public int numMaps() {
    return numMaps;
  }

  public int numReduces() {
    return dependency().partitioner().numPartitions();
  }
}
