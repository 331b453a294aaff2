package org.scache.master;

import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records of the master's kept state that reading it back skipped (corrupt, cut short by a crash, or past a limit):
 * each logged at WARN with its file and place in it, the first {@value #LOGGED} of a master's life in full and then
 * one line in {@value #LOGGED}, and counted, so that a master always comes back with what it can read.
 */
final class SkippedRecords {
  private static final Logger LOG = LoggerFactory.getLogger(SkippedRecords.class);
  static final int LOGGED = 20;

  private final LongConsumer counted;
  private long count;

  /** Skipped records reported to the log and to {@code counted} (a metric), one at a time. */
  SkippedRecords(LongConsumer counted) {
    this.counted = counted;
  }

  /** Skipped records reported to the log only. */
  static SkippedRecords logged() {
    return new SkippedRecords(n -> { });
  }

  /** Reports a skipped record: {@code where} names the file (or node), {@code record} its place in it. */
  synchronized void skip(Object where, String record, String why) {
    count++;
    counted.accept(1);
    if (count <= LOGGED || count % LOGGED == 0) {
      LOG.warn("skipping {} of {}, kept by an earlier master: {} ({} skipped so far)", record, where, why, count);
    }
  }

  /** Records skipped so far. */
  synchronized long count() {
    return count;
  }
}
