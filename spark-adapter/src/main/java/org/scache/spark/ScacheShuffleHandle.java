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
  private final int mapsPerTask;

  ScacheShuffleHandle(int shuffleId, ShuffleDependency<K, V, C> dependency, String appId, int numMaps,
      int mapsPerTask) {
    super(shuffleId, dependency);
    this.appId = appId;
    this.numMaps = numMaps;
    this.mapsPerTask = mapsPerTask;
  }

  /** The SCache application the shuffle's blocks belong to. */
  public String appId() {
    return appId;
  }

  /** The number of map tasks (partitions of the map side's RDD). */
  public int numMaps() {
    return numMaps;
  }

  /**
   * SCache maps per map task: a task puts its output in up to this many segments, segment {@code s} of map
   * {@code m} as SCache's map {@code m × mapsPerTask + s}; 1 when each task puts its whole output at its end.
   */
  public int mapsPerTask() {
    return mapsPerTask;
  }

  /** SCache's map id of segment {@code segment} of map task {@code mapIndex}. */
  int scacheMap(int mapIndex, int segment) {
    return mapIndex * mapsPerTask + segment;
  }

  public int numReduces() {
    return dependency().partitioner().numPartitions();
  }
}
