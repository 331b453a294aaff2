/**
 * How the worker's parts see the rest of the cluster, in domain values: the master as a
 * {@link org.scache.worker.cluster.BlockLocator} and the other workers as
 * {@link org.scache.worker.cluster.PeerFetches} ({@code NetworkPeerFetches} over the network), so that
 * the reader and the prefetcher are tested against a scripted cluster. It depends on nothing else in
 * the worker.
 */
package org.scache.worker.cluster;
