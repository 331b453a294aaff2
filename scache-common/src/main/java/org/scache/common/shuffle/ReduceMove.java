package org.scache.common.shuffle;

import org.scache.common.WorkerInfo;

/**
 * A change Algorithm 2 made to an earlier shuffle of a reduce stage when it placed a later one:
 * reduce {@code reduceId} of the earlier shuffle {@code shuffleId} moved from worker {@code from} to
 * worker {@code to}, which fetches its blocks (a re-shuffle), and takes the round the later shuffle
 * gave the reduce. When {@code from} is {@code to}, only the round changed.
 */
public record ReduceMove(int shuffleId, int reduceId, WorkerInfo from, WorkerInfo to) {
  /** Whether the reduce's blocks move to another worker (not only its round). */
  public boolean changesWorker() {
    return !from.workerId().equals(to.workerId());
  }
}
