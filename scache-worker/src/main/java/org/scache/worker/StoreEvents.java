package org.scache.worker;

import java.util.List;
import org.scache.common.BlockId;
import org.scache.common.shuffle.RoundState;

/** What the block store tells the rest of the worker (in practice: the master) about its contents. */
interface StoreEvents {
  /** Rounds this worker started or stopped keeping only in part. */
  void roundsChanged(List<RoundState> changes);

  /** Blocks that were lost here (their spilled bytes failed the checksum). */
  void blocksLost(List<BlockId> lost);

  /** Ignores everything. */
  StoreEvents NONE = new StoreEvents() {
    @Override
    public void roundsChanged(List<RoundState> changes) {}

    @Override
    public void blocksLost(List<BlockId> lost) {}
  };
}
