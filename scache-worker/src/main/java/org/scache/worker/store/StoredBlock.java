package org.scache.worker.store;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.Optional;
import org.scache.common.BlockId;
import org.scache.worker.spill.SpillStore;

/**
 * A block held by the store: its id and size, and either its bytes in the reserve or where it lies
 * in a spill file (an empty block holds neither memory nor disk). Also whether it is a prefetched
 * copy, whether a reducer has read it, and when it was last used. The mutable state is guarded by
 * the {@link BlockStore}.
 */
final class StoredBlock {
  private final BlockId id;
  private final long size;
  private final boolean copy;
  private ByteBuf data;
  private SpillStore.Location spilled;
  private boolean consumed;
  private long lastAccessNanos;
  /** The {@link BlockOrder}'s entry for this block, kept here rather than in a map beside it; null until placed. */
  private Object orderEntry;
  /** This block's neighbours among its shuffle's blocks ({@link ShuffleBlocks}); guarded by the store. */
  StoredBlock prevInShuffle;
  StoredBlock nextInShuffle;

  StoredBlock(BlockId id, ByteBuf data, boolean copy, long nowNanos) {
    this.id = id;
    this.data = data;
    this.size = data.readableBytes();
    this.copy = copy;
    this.lastAccessNanos = nowNanos;
  }

  /** A block that went straight to disk when it was put. */
  StoredBlock(BlockId id, long size, SpillStore.Location spilled, long nowNanos) {
    this.id = id;
    this.size = size;
    this.copy = false;
    this.spilled = spilled;
    this.lastAccessNanos = nowNanos;
  }

  BlockId id() {
    return id;
  }

  Object orderEntry() {
    return orderEntry;
  }

  void orderEntry(Object entry) {
    orderEntry = entry;
  }

  long size() {
    return size;
  }

  boolean isCopy() {
    return copy;
  }

  boolean inMemory() {
    return data != null;
  }

  /** Where the block lies on disk, when it is spilled. */
  Optional<SpillStore.Location> spilled() {
    return Optional.ofNullable(spilled);
  }

  boolean consumed() {
    return consumed;
  }

  void markConsumed() {
    consumed = true;
  }

  long lastAccessNanos() {
    return lastAccessNanos;
  }

  void touch(long nowNanos) {
    lastAccessNanos = nowNanos;
  }

  /** The block's bytes for one reader, who must release them; the memory stays until then. */
  ByteBuf retainedData() {
    return data.isReadable() ? data.retainedDuplicate() : Unpooled.EMPTY_BUFFER;
  }

  /**
   * The block's bytes for one local reader who copies them from the pool's shared memory: the
   * retained reference keeps the region from being reused until released. Empty when the block
   * holds no pool memory (an empty or a spilled block).
   */
  Optional<PinnedBytes> pin() {
    if (data instanceof BlockBuffer b) {
      return Optional.of(new PinnedBytes(data.retainedDuplicate(), b.region(), data.readableBytes()));
    }
    return Optional.empty();
  }

  /** The block now lives at {@code location} only; its memory goes back when no reader holds it. */
  void spilledTo(SpillStore.Location location) {
    ByteBuf old = data;
    data = null;
    spilled = location;
    old.release();
  }

  /** A spilled block's bytes were moved to {@code location} (a spill file was compacted). */
  void movedOnDisk(SpillStore.Location location) {
    spilled = location;
  }

  /** The block is back in memory, in {@code loaded}; returns where it lay on disk. */
  SpillStore.Location loaded(ByteBuf loaded) {
    SpillStore.Location was = spilled;
    spilled = null;
    data = loaded;
    return was;
  }

  /** Drops the store's hold: the memory reference, or returns the spill location to free. */
  Optional<SpillStore.Location> release() {
    if (data != null) {
      data.release();
      data = null;
      return Optional.empty();
    }
    SpillStore.Location was = spilled;
    spilled = null;
    return Optional.ofNullable(was);
  }

  @Override
  public String toString() {
    return id + (data != null ? "" : spilled != null ? " (spilled)" : " (released)") + (copy ? " (copy)" : "");
  }
}
