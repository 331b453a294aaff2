/**
 * The worker's side of its connections: the request handler that turns each wire message into a call
 * and its result into the answer, the reassembly of streamed puts, the shared-memory requests, reads of
 * blocks and reduce inputs, and what an application's requests do to its shuffles. Only this package
 * and the classes that call the master and other workers know the wire messages; it may depend on every
 * other package of the worker but the daemon's.
 */
package org.scache.worker.requests;
