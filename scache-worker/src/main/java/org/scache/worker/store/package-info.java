/**
 * The worker's storage: the reserved shared memory, the blocks and their states (in memory, spilled,
 * prefetched copies, read), the one commit path for puts, and the placement book the spill order reads.
 * The spiller and the spilled reads live here rather than in {@code spill}, because they move blocks
 * through the store's own state changes, which stay package-private. It may depend on {@code spill} and
 * {@code counters} only; {@link org.scache.worker.store.WorkerStorage} puts it together.
 */
package org.scache.worker.store;
