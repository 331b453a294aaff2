package org.scache.spark;

/**
 * A map attempt's number in SCache block ids: the Spark task attempt id that wrote it, unique in the
 * application, so that the blocks of two attempts of a map (a retry, a speculative copy, another
 * stage attempt) are never taken for one another. The reader reads the attempt whose map status the
 * driver kept.
 */
final class BlockAttempts {
  private BlockAttempts() {}

  static int of(long taskAttemptId) {
    if (taskAttemptId < 0 || taskAttemptId > Integer.MAX_VALUE) {
      throw new IllegalStateException("task attempt id " + taskAttemptId + " does not fit an SCache block attempt");
    }
    return (int) taskAttemptId;
  }
}
