package org.scache.worker.spill;

import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.buffer.UnpooledDirectByteBuf;

/**
 * A buffer a spilled block is read into to be served from disk, outside the reserve: its bytes
 * count against a {@link SpillReadBudget} until the last reader releases it.
 */
public final class SpillReadBuffer extends UnpooledDirectByteBuf {
  private final SpillReadBudget budget;
  private final long taken;

  public SpillReadBuffer(int capacity, SpillReadBudget budget, long taken) {
    super(UnpooledByteBufAllocator.DEFAULT, capacity, capacity);
    this.budget = budget;
    this.taken = taken;
  }

  @Override
  protected void deallocate() {
    super.deallocate();
    budget.release(taken);
  }
}
