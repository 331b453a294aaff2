/**
 * What spilling is made of, below the store: the policies that order blocks for eviction, the spill
 * files on local disk with their checksums, and the budget that bounds the memory spilled blocks take
 * when they are read back. It depends on nothing else in the worker; the store builds on it, and
 * benchmarks use the policies.
 */
package org.scache.worker.spill;
