package org.scache.benchmarks.hadoop;

/**
 * One task attempt of a job, from its history: when it started and finished (epoch milliseconds), and
 * for a reduce when its shuffle finished (0 when unknown, e.g. for an attempt that failed); its
 * container, when the task's JVM was up (its log's first line) and, for a reduce, when its shuffle
 * began (its log's line naming the shuffle consumer); 0 when unknown.
 */
record AttemptSpan(boolean map, int task, int attempt, long start, long shuffleFinish, long finish,
    boolean succeeded, String node, String container, long jvmUp, long shuffleStart) {

  AttemptSpan(boolean map, int task, int attempt, long start, long shuffleFinish, long finish, boolean succeeded,
      String node) {
    this(map, task, attempt, start, shuffleFinish, finish, succeeded, node, "", 0, 0);
  }

  AttemptSpan(boolean map, int task, int attempt, long start, long shuffleFinish, long finish, boolean succeeded,
      String node, String container, long jvmUp) {
    this(map, task, attempt, start, shuffleFinish, finish, succeeded, node, container, jvmUp, 0);
  }

  /**
   * A successful reduce's launch: from its start (the container's) to its shuffle's beginning (JVM, task
   * set-up), in ms (-1 for others, or when its log was not found).
   */
  long launchMs() {
    return !map && succeeded && shuffleStart >= start && shuffleStart > 0 ? shuffleStart - start : -1;
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

  /**
   * A successful reduce's shuffle itself: from its beginning (the task's log) to its end, in ms (-1 for
   * others, or when the log was not found).
   */
  long shuffleItselfMs() {
    return !map && succeeded && shuffleStart > 0 && shuffleFinish >= shuffleStart ? shuffleFinish - shuffleStart : -1;
  }

  AttemptSpan withTaskLog(ContainerLogs.TaskLog log) {
    return new AttemptSpan(map, task, attempt, start, shuffleFinish, finish, succeeded, node, container, log.jvmUp(),
        log.shuffleStart());
  }
}
