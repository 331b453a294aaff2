/**
 * The worker's link to the master: {@link org.scache.worker.master.MasterCalls}, the one class that
 * speaks to the master over the wire, the conversation kept over it (registration, heartbeats, reports)
 * and what arrives from the master, applied as domain values. It may depend on {@code store},
 * {@code prefetch}, {@code cluster} and {@code counters}.
 */
package org.scache.worker.master;
