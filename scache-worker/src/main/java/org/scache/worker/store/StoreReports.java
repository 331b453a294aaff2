package org.scache.worker.store;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import org.scache.common.BlockId;
import org.scache.common.shuffle.BlockSize;
import org.scache.common.shuffle.RoundState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the storage tells the master through its {@link StoreEvents}: the size of each block put, the
 * rounds this worker started or stopped keeping only in part (a block of theirs spilled and not read
 * yet), each change once, and the blocks it lost. Rounds are tracked only when the worker can spill.
 */
final class StoreReports {
  private static final Logger LOG = LoggerFactory.getLogger(StoreReports.class);

  private final boolean tracksRounds;
  private volatile StoreEvents events = StoreEvents.NONE;
  // guarded by itself
  private final Set<BlockOrder.RoundKey> reported = new HashSet<>();

  StoreReports(boolean tracksRounds) {
    this.tracksRounds = tracksRounds;
  }

  /** Where the reports go from now on (until then, nowhere). */
  void events(StoreEvents events) {
    this.events = events;
  }

  /** A block was put here. */
  void stored(BlockSize block) {
    events.blockStored(block);
  }

  /**
   * Tells the events which rounds became, or stopped being, kept only in part here since the last call.
   *
   * @param keptInPart the rounds kept only in part here now, read while no other call reports
   */
  void roundsMayHaveChanged(Supplier<Set<BlockOrder.RoundKey>> keptInPart) {
    if (!tracksRounds) {
      return;
    }
    synchronized (reported) {
      Set<BlockOrder.RoundKey> now = keptInPart.get();
      List<RoundState> changes = new ArrayList<>();
      for (BlockOrder.RoundKey k : now) {
        if (!reported.contains(k)) {
          changes.add(state(k, true));
        }
      }
      for (BlockOrder.RoundKey k : reported) {
        if (!now.contains(k)) {
          changes.add(state(k, false));
        }
      }
      reported.clear();
      reported.addAll(now);
      if (!changes.isEmpty()) {
        events.roundsChanged(changes);
      }
    }
  }

  /** A block was lost here (its spilled bytes failed their checksum). */
  void lost(BlockId id, String why) {
    LOG.warn("block {} is lost: {}", id, why);
    events.blocksLost(List.of(id));
  }

  /** The rounds this worker keeps only in part, as last reported (to tell a master that lost track). */
  List<RoundState> incompleteRounds() {
    synchronized (reported) {
      return reported.stream().map(k -> state(k, true)).toList();
    }
  }

  private static RoundState state(BlockOrder.RoundKey k, boolean incomplete) {
    return new RoundState(k.shuffle().appId(), k.shuffle().shuffleId(), k.round(), incomplete);
  }
}
