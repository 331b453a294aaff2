package org.scache.spark;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.storage.BlockId;
import org.apache.spark.storage.BlockManagerId;
import org.apache.spark.storage.ShuffleBlockId;
import scala.Tuple2;
import scala.Tuple3;
import scala.collection.Iterator;
import scala.collection.Seq;

/**
 * A block a reduce task must read, as the driver's map output tracker names it: the map index, the
 * task attempt whose map status the driver kept (the block's SCache attempt), the reduce
 * partition, the size, the location the map reported, and the SCache map it is stored as (the map index, or for a
 * map task that wrote in segments, one segment's map: such a map's partition is one expected block per segment).
 */
record ExpectedBlock(int mapIndex, long mapTaskId, int reduceId, long size, BlockManagerId location, int scacheMap) {

  int attempt() {
    return BlockAttempts.of(mapTaskId);
  }

  ShuffleBlockId sparkId(int shuffleId) {
    return new ShuffleBlockId(shuffleId, mapTaskId, reduceId);
  }

  /**
   * The tracker's answer as a list; empty blocks are not in it (Spark leaves them out). A shuffle whose map tasks
   * write up to {@code mapsPerTask} segments has each map's partition as one block per segment the map used
   * ({@link MapSegments#segmentsOf}), its size shared among them.
   */
  static List<ExpectedBlock> from(Iterator<Tuple2<BlockManagerId, Seq<Tuple3<BlockId, Object, Object>>>> byLocation,
      int mapsPerTask) {
    List<ExpectedBlock> blocks = new ArrayList<>();
    while (byLocation.hasNext()) {
      Tuple2<BlockManagerId, Seq<Tuple3<BlockId, Object, Object>>> at = byLocation.next();
      Iterator<Tuple3<BlockId, Object, Object>> it = at._2().iterator();
      while (it.hasNext()) {
        Tuple3<BlockId, Object, Object> b = it.next();
        ShuffleBlockId id = (ShuffleBlockId) b._1();
        int mapIndex = (Integer) b._3();
        int used = mapsPerTask == 1 ? 1 : MapSegments.segmentsOf(at._1());
        if (used < 1 || used > mapsPerTask) {
          throw new IllegalStateException("map " + mapIndex + " reports " + used + " segments; at most "
              + mapsPerTask + " are written");
        }
        long size = (Long) b._2();
        for (int s = 0; s < used; s++) {
          blocks.add(new ExpectedBlock(mapIndex, id.mapId(), id.reduceId(), size / used + (s < size % used ? 1 : 0),
              at._1(), mapIndex * mapsPerTask + s));
        }
      }
    }
    return blocks;
  }
}
