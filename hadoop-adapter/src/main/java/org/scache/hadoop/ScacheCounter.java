package org.scache.hadoop;

/** Counters the adapter adds to a job that shuffles through SCache (group {@code org.scache.hadoop.ScacheCounter}). */
public enum ScacheCounter {
  /** Blocks maps put on SCache workers (one per partition and run). */
  BLOCKS_PUT,
  /** Bytes of those blocks' IFile runs, as stored (compressed when map output is). */
  BYTES_PUT,
  /** Runs maps wrote before their last one because their output exceeded the sort buffer. */
  SPILL_RUNS,
  /**
   * Milliseconds from a map task's JVM start to the start of its output collector, summed over the job's maps;
   * the application master reads each finished map's own to time the reduces' launch ({@code ReduceLaunchLead}).
   */
  MAP_JVM_STARTUP_MILLIS,
  /**
   * Map attempts run again (after a failed attempt or a lost output) that wrote as Hadoop's shuffle, into their
   * node's local directories ({@code ShuffleChoice.writesAsHadoop}).
   */
  MAPS_WRITTEN_AS_HADOOP,
  /** Map outputs reduces read from the NodeManagers' shuffle service: those of maps written as Hadoop's shuffle. */
  OUTPUTS_READ_FROM_NODE_MANAGERS,
  /** Runs reduces read from SCache. */
  RUNS_READ,
  /** Bytes of those runs, as stored. */
  BYTES_READ,
  /** Map outputs a reduce found lost and reported as fetch failures. */
  LOST_MAP_OUTPUTS,
  /** Reduce attempts the application master launched on the node the pre-schedule placed them on (job counter). */
  REDUCES_ON_SCHEDULED_NODE,
  /** Reduce attempts launched elsewhere: no schedule, or their node was not had within the placement delay. */
  REDUCES_ELSEWHERE
}
