/**
 * The SCache worker daemon: {@link org.scache.worker.ScacheWorker} builds the worker's parts around its
 * bound port and then serves, {@link org.scache.worker.WorkerMain} runs it in the foreground, and the
 * stats and metrics wiring reads the parts' counters and gauges. It may depend on every package of the
 * worker; none of them depends on it.
 */
package org.scache.worker;
