/**
 * What a client on the worker's host holds of its shared memory, one connection at a time: leased
 * ranges it copies blocks into and commits, and pinned blocks it copies out, with exact accounting and
 * per-application quotas. It speaks in domain values, never in wire messages, and may depend on
 * {@code store}, {@code cluster} and {@code counters}.
 */
package org.scache.worker.local;
