package org.scache.worker.store;

import java.util.List;
import org.scache.common.BlockId;
import org.scache.common.shuffle.BlockSize;
import org.scache.common.shuffle.RoundState;

/** What the worker's storage tells the rest of the worker (in practice: the master) about its contents. */
public interface StoreEvents {
  /** A block was put here: its size. */
  void blockStored(BlockSize block);

  /** Rounds this worker started or stopped keeping only in part. */
  void roundsChanged(List<RoundState> changes);

  /** Blocks that were lost here (their spilled bytes failed the checksum). */
  void blocksLost(List<BlockId> lost);

  /** Ignores everything. */
  StoreEvents NONE = new StoreEvents() {
    @Override
    public void blockStored(BlockSize block) {}

    @Override
    public void roundsChanged(List<RoundState> changes) {}

    @Override
    public void blocksLost(List<BlockId> lost) {}
  };
}
