package org.scache.common.shuffle;

/** How a shuffle's records are assigned to reduce partitions; picks the size predictor (paper III-B2). */
public enum PartitionerKind {
  /** Records go to a reduce by a hash of their key: reduce sizes follow the map outputs (regression). */
  HASH,
  /** Records go to a reduce by key ranges: reduce sizes follow the input's key distribution (sampling). */
  RANGE,
  /** Any other partitioner: treated like a range partitioner, since a few observed maps can misrepresent it. */
  CUSTOM
}
