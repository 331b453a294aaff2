/**
 * What the worker has done since it started: the counters every part of the worker adds to, and the
 * per-shuffle activity reported to the master with the heartbeats. Every other package of the worker
 * may use it; it depends on none of them, only on {@code org.scache.common}.
 */
package org.scache.worker.counters;
