package org.scache.tez;

/**
 * Counters of the Tez adapter: in the task counters of the producers and consumers that use SCache, and (the
 * {@code DAG_} ones) in the DAG's own counters, set by the configuration switch when the DAG is initialized.
 */
public enum ScacheTezCounter {
  /** Producer: partitions put on the node's worker. */
  BLOCKS_PUT,
  /** Producer: bytes of the IFile segments put. */
  BYTES_PUT,
  /**
   * Producer: attempts whose output SCache did not take (every worker refused a block, or the registration) and
   * that Tez's shuffle service serves instead.
   */
  OUTPUTS_WRITTEN_AS_TEZ,
  /** Consumer: producers' partitions read from Tez's shuffle service: those of outputs written as Tez's. */
  OUTPUTS_READ_FROM_NODE_MANAGERS,
  /** Consumer: blocks read (one per producer and partition). */
  BLOCKS_READ,
  /** Consumer: bytes of the IFile segments read. */
  BYTES_READ,
  /** Consumer: blocks read one by one, because they were not part of the bulk read of the partition. */
  BLOCKS_READ_SINGLY,
  /** Consumer: producer attempts whose block was missing and that were reported as input read errors. */
  LOST_INPUTS,
  /** Consumer: tasks that ran on the worker the pre-schedule placed them on. */
  CONSUMERS_ON_SCHEDULED_WORKER,
  /** Consumer: tasks that ran elsewhere (their input was fetched from the scheduled worker or the producers). */
  CONSUMERS_OFF_SCHEDULED_WORKER,
  /** Consumer: tasks whose partitions had no schedule when they read. */
  CONSUMERS_WITHOUT_SCHEDULE,
  /** DAG: edges that go through SCache (switched by the configuration switch, or built with ScacheTezDag). */
  DAG_EDGES_THROUGH_SCACHE,
  /** DAG, with the switch on: edges that stay on Tez's shuffle; the application master's log says why, per edge. */
  DAG_EDGES_ON_TEZ_SHUFFLE,
  /** DAG: 1 when the switch was on but SCache was not usable (master unreachable, no live worker), 0 otherwise. */
  DAG_SCACHE_UNUSABLE
}
