package org.scache.hadoop;

import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.scache.common.shuffle.PartitionerKind;

/** What a MapReduce job's partitioner is to the master's predictors: hash, range (total order) or custom. */
public final class PartitionerKinds {
  private PartitionerKinds() {}

  /** The kind of the partitioner the job's maps use, new or old API. */
  public static PartitionerKind of(JobConf job) throws ClassNotFoundException {
    String name = job.getUseNewMapper()
        ? job.getClass(MRJobConfig.PARTITIONER_CLASS_ATTR,
            org.apache.hadoop.mapreduce.lib.partition.HashPartitioner.class).getName()
        : job.getPartitionerClass().getName();
    if (name.endsWith(".HashPartitioner")) {
      return PartitionerKind.HASH;
    }
    return name.endsWith(".TotalOrderPartitioner") ? PartitionerKind.RANGE : PartitionerKind.CUSTOM;
  }
}
