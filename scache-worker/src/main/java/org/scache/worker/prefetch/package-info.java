/**
 * Copies the blocks of the reduces placed on this worker here before the reduces run, as the master's
 * placements and finished maps arrive, and lets a read wait for a copy on its way. It may depend on
 * {@code store}, {@code cluster} and {@code counters}.
 */
package org.scache.worker.prefetch;
