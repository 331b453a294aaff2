package org.scache.hadoop.bench;

/**
 * One task attempt of a job, from its history: when it started and finished (epoch milliseconds), and
 * for a reduce when its shuffle finished (0 when unknown, e.g. for an attempt that failed).
 */
record AttemptSpan(boolean map, int task, int attempt, long start, long shuffleFinish, long finish,
    boolean succeeded, String node) {

  /** A successful reduce's shuffle wait: from its start to the end of its shuffle, in ms (-1 for others). */
  long shuffleWaitMs() {
    return !map && succeeded && shuffleFinish >= start && shuffleFinish > 0 ? shuffleFinish - start : -1;
  }
}
