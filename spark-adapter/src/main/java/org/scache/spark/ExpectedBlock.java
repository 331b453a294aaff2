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
 * partition, the size, and the location the map reported. The map index is also the SCache map the block is
 * stored as.
 */
record ExpectedBlock(int mapIndex, long mapTaskId, int reduceId, long size, BlockManagerId location) {

  int attempt() {
    return BlockAttempts.of(mapTaskId);
  }

  ShuffleBlockId sparkId(int shuffleId) {
    return new ShuffleBlockId(shuffleId, mapTaskId, reduceId);
  }

  /** The tracker's answer as a list; empty blocks are not in it (Spark leaves them out). */
  static List<ExpectedBlock> from(Iterator<Tuple2<BlockManagerId, Seq<Tuple3<BlockId, Object, Object>>>> byLocation) {
    List<ExpectedBlock> blocks = new ArrayList<>();
    while (byLocation.hasNext()) {
      Tuple2<BlockManagerId, Seq<Tuple3<BlockId, Object, Object>>> at = byLocation.next();
      Iterator<Tuple3<BlockId, Object, Object>> it = at._2().iterator();
      while (it.hasNext()) {
        Tuple3<BlockId, Object, Object> b = it.next();
        ShuffleBlockId id = (ShuffleBlockId) b._1();
        blocks.add(new ExpectedBlock((Integer) b._3(), id.mapId(), id.reduceId(), (Long) b._2(), at._1()));
      }
    }
    return blocks;
  }
}
