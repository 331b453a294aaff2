package org.scache.spark;

import org.apache.spark.HashPartitioner;
import org.apache.spark.Partitioner;
import org.apache.spark.RangePartitioner;
import org.scache.common.shuffle.PartitionerKind;

/**
 * The kind of a Spark partitioner, which picks the master's predictor (paper III-B2). Spark SQL
 * computes every row's partition before its shuffle and hands the shuffle a partitioner that passes
 * that id through; its map outputs show the distribution as well as a hash's do, so it counts as a hash.
 */
final class PartitionerKinds {
  private static final String SQL_PASSTHROUGH = "org.apache.spark.PartitionIdPassthrough";
  private static final String SQL_COALESCED = "org.apache.spark.sql.execution.CoalescedPartitioner";

  private PartitionerKinds() {}

  static PartitionerKind of(Partitioner p) {
    if (p instanceof HashPartitioner) {
      return PartitionerKind.HASH;
    }
    if (p instanceof RangePartitioner) {
      return PartitionerKind.RANGE;
    }
    String name = p.getClass().getName();
    return name.equals(SQL_PASSTHROUGH) || name.equals(SQL_COALESCED) ? PartitionerKind.HASH : PartitionerKind.CUSTOM;
  }
}
