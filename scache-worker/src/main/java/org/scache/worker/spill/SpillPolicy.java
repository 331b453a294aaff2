package org.scache.worker.spill;

import java.util.Comparator;
import java.util.Locale;

/**
 * Chooses which blocks leave a worker's memory when a put does not fit: the order is victims first.
 * The reverse order is the order spilled blocks are loaded back in.
 */
public interface SpillPolicy {

  /** Orders blocks so that the first is the first to leave memory; a total order. */
  Comparator<SpillCandidate> victimOrder();

  /** The policy's configuration name. */
  String name();

  /** Whether the order depends on when blocks were last used (then every read moves a block in it). */
  default boolean ordersByLastUse() {
    return false;
  }

  /**
   * Whether the order looks at a block's arrival, map and attempt only after everything it shares with the other
   * blocks of its reduce that are alike in being copies or not and read or not: its shuffle, its reduce and the
   * reduce's place in the schedule; and then at its arrival first, the latest first ({@link SpillCandidate#arrival}).
   * Then the worker keeps its order by such groups of blocks, each group's blocks in the order they came, and a
   * placement learnt moves a reduce's groups, not each of its blocks.
   */
  default boolean ranksByReduce() {
    return false;
  }

  /**
   * Whether the order depends on where a block's reduce is in the schedule (whether it is placed, its shuffle's
   * submission, its round, whether the round is kept in part); if not, a placement learnt moves no block.
   */
  default boolean ranksBySchedule() {
    return true;
  }

  /** The paper's policy (Section IV-B): all-or-nothing rounds, then context-aware priority. */
  static SpillPolicy contextAware() {
    return ContextAwareSpillPolicy.INSTANCE;
  }

  /** Least recently used first: a baseline to compare the paper's policy with. */
  static SpillPolicy lru() {
    return LruSpillPolicy.INSTANCE;
  }

  /** The policy configured as {@code name} ({@code context-aware} or {@code lru}). */
  static SpillPolicy named(String name) {
    String n = name.trim().toLowerCase(Locale.ROOT);
    if (n.equals(ContextAwareSpillPolicy.INSTANCE.name())) {
      return contextAware();
    }
    if (n.equals(LruSpillPolicy.INSTANCE.name())) {
      return lru();
    }
    throw new IllegalArgumentException("unknown spill policy '" + name + "': use context-aware or lru");
  }
}
