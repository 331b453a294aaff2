package org.scache.hadoop.bench;

/**
 * One task attempt of a job, from its history: when it started and finished (epoch milliseconds), and
 * for a reduce when its shuffle finished (0 when unknown, e.g. for an attempt that failed); its
 * container, and when the task's JVM was up (its log's first line; 0 when unknown).
 */
record AttemptSpan(boolean map, int task, int attempt, long start, long shuffleFinish, long finish,
    boolean succeeded, String node, String container, long jvmUp) {

  AttemptSpan(boolean map, int task, int attempt, long start, long shuffleFinish, long finish, boolean succeeded,
      String node) {
    this(map, task, attempt, start, shuffleFinish, finish, succeeded, node, "", 0);
  }

  /** A successful reduce's shuffle wait: from its start to the end of its shuffle, in ms (-1 for others). */
  long shuffleWaitMs() {
    return !map && succeeded && shuffleFinish >= start && shuffleFinish > 0 ? shuffleFinish - start : -1;
  }

  /**
   * A successful reduce's shuffle once its JVM was up: from its log's first line to the end of its
   * shuffle, in ms (-1 for others, or when the log was not found).
   */
  long shuffleAfterJvmMs() {
    return !map && succeeded && jvmUp > 0 && shuffleFinish >= jvmUp ? shuffleFinish - jvmUp : -1;
  }

  AttemptSpan withJvmUp(long time) {
    return new AttemptSpan(map, task, attempt, start, shuffleFinish, finish, succeeded, node, container, time);
  }
}
