package org.scache.common.shuffle;

import org.scache.common.WorkerInfo;

/**
 * A re-shuffle ordered by Algorithm 2: reduce {@code reduceId} of the earlier shuffle {@code
 * shuffleId} moved from worker {@code from} to worker {@code to}, which fetches its blocks.
 */
public record ReduceMove(int shuffleId, int reduceId, WorkerInfo from, WorkerInfo to) {}
