package org.scache.spark;

import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.spark.MapOutputTrackerMaster;
import org.apache.spark.SparkEnv;

/**
 * The blocks of the application's own shuffles through SCache, which fill its share of the workers' block limits
 * until each shuffle is unregistered: M × R for a shuffle whose maps have not all finished (what it may still put),
 * and the blocks its maps did put once they all have, as the driver's map statuses count them (a map puts no block
 * for an empty partition, and a query's shuffles of 200 partitions have many). Not thread-safe: guarded by the
 * {@link DriverShuffles}.
 */
final class OwnShuffleBlocks {
  /** How many blocks the finished maps of a shuffle put; empty while any of its maps has no output. */
  interface StoredCount {
    OptionalLong of(int shuffleId, int numReduces);
  }

  private static final class Booked {
    final int numReduces;
    long blocks;
    boolean counted;

    Booked(int numReduces, long blocks) {
      this.numReduces = numReduces;
      this.blocks = blocks;
    }
  }

  private final StoredCount stored;
  private final Map<Integer, Booked> shuffles = new HashMap<>();

  OwnShuffleBlocks(StoredCount stored) {
    this.stored = stored;
  }

  /** Counted from this driver's map output tracker: the non-empty blocks of every map's status. */
  static OwnShuffleBlocks fromMapStatuses() {
    return new OwnShuffleBlocks(OwnShuffleBlocks::nonEmptyBlocks);
  }

  void add(int shuffleId, int numMaps, int numReduces) {
    shuffles.put(shuffleId, new Booked(numReduces, (long) numMaps * numReduces));
  }

  void remove(int shuffleId) {
    shuffles.remove(shuffleId);
  }

  int shuffles() {
    return shuffles.size();
  }

  /** The blocks of every shuffle added and not removed: counted once its maps all finished, M × R until then. */
  long total() {
    long sum = 0;
    for (Map.Entry<Integer, Booked> e : shuffles.entrySet()) {
      Booked b = e.getValue();
      if (!b.counted) {
        OptionalLong put = stored.of(e.getKey(), b.numReduces);
        if (put.isPresent()) {
          b.blocks = put.getAsLong();
          b.counted = true;
        }
      }
      sum += b.blocks;
    }
    return sum;
  }

  @SuppressWarnings({"rawtypes", "unchecked"})
  private static OptionalLong nonEmptyBlocks(int shuffleId, int numReduces) {
    SparkEnv env = SparkEnv.get();
    if (env == null) {
      return OptionalLong.empty();
    }
    if (!(env.mapOutputTracker() instanceof MapOutputTrackerMaster tracker)) {
      return OptionalLong.empty();
    }
    try {
      // a shuffle the tracker has no stage of yet, or with maps to run, has not put all it may put
      scala.Option<scala.collection.Seq<Object>> missing = (scala.Option) tracker.findMissingPartitions(shuffleId);
      if (!tracker.containsShuffle(shuffleId) || missing.isEmpty() || !missing.get().isEmpty()) {
        return OptionalLong.empty();
      }
      // the tracker leaves out the blocks of size 0
      scala.collection.Iterator it = tracker.getMapSizesByExecutorId(shuffleId, 0, Integer.MAX_VALUE, 0, numReduces);
      long blocks = 0;
      while (it.hasNext()) {
        blocks += ((scala.collection.Seq) ((scala.Tuple2) it.next())._2()).size();
      }
      return OptionalLong.of(blocks);
    } catch (RuntimeException e) {
      return OptionalLong.empty();
    }
  }
}
