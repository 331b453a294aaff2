package org.scache.worker.store;

import io.netty.buffer.ByteBuf;
import java.util.Optional;
import org.scache.common.BlockId;
import org.scache.common.ShuffleKey;
import org.scache.worker.spill.SpillCandidate;
import org.scache.worker.spill.SpillStore;

/**
 * A block held by the store, as its map attempt's {@link MapBlocks} and its slot there: made when the block is looked
 * up, not kept per block. Two are equal when they name the same slot, and a slot is never used again for another
 * block, so a block looked up before a change is still the block it was, held or not ({@link #held()}).
 *
 * <p>What it answers is its slot's: its id, its size, whether its bytes are in the reserve, in a buffer or on disk,
 * whether it is a prefetched copy or read by a reducer. As a {@link SpillCandidate} it answers what the
 * {@link BlockOrder} saw when it last placed it (whether a reducer had read it, its round), which its
 * {@link VictimGroup} holds, frozen until ranked again ({@link #readByReducer()} is the block's state now). The mutable
 * state is guarded by the {@link BlockStore}.
 */
final class StoredBlock implements SpillCandidate {
  private final MapBlocks blocks;
  private final int slot;

  StoredBlock(MapBlocks blocks, int slot) {
    this.blocks = blocks;
    this.slot = slot;
  }

  MapBlocks blocks() {
    return blocks;
  }

  int slot() {
    return slot;
  }

  /** Whether the store holds the block (not removed since it was looked up). */
  boolean held() {
    return blocks.held(slot);
  }

  /** Its id, made when asked (the block keeps its parts). */
  @Override
  public BlockId id() {
    ShuffleKey shuffle = shuffle();
    return new BlockId(shuffle.appId(), shuffle.shuffleId(), blocks.mapId(), blocks.attempt(), reduceId());
  }

  ShuffleKey shuffle() {
    return blocks.shuffle().key();
  }

  @Override
  public String appId() {
    return shuffle().appId();
  }

  @Override
  public int shuffleId() {
    return shuffle().shuffleId();
  }

  @Override
  public int mapId() {
    return blocks.mapId();
  }

  @Override
  public int attempt() {
    return blocks.attempt();
  }

  @Override
  public int reduceId() {
    return blocks.reduce(slot);
  }

  @Override
  public long arrival() {
    return blocks.ordinal();
  }

  @Override
  public long size() {
    return blocks.size(slot);
  }

  @Override
  public boolean copy() {
    return blocks.copy(slot);
  }

  /** The order saw it read by a reducer when it last placed it ({@link #readByReducer()} is now). */
  @Override
  public boolean consumed() {
    VictimGroup g = group();
    return g != null && g.consumed();
  }

  /** Its last use, kept under a policy that orders by it (else 0). */
  @Override
  public long lastAccessNanos() {
    return blocks.lastUse(slot);
  }

  @Override
  public boolean scheduled() {
    VictimGroup g = group();
    return g != null && g.scheduled();
  }

  @Override
  public long submissionTimeMillis() {
    VictimGroup g = group();
    return g == null ? 0 : g.submissionTimeMillis();
  }

  @Override
  public int round() {
    VictimGroup g = group();
    return g == null ? 0 : g.round();
  }

  @Override
  public boolean roundIncomplete() {
    VictimGroup g = group();
    return g != null && g.roundIncomplete();
  }

  /** The group of the {@link BlockOrder} it is in, which holds what the order saw when it last placed it, or null. */
  VictimGroup group() {
    return blocks.group(slot);
  }

  void group(VictimGroup g) {
    blocks.group(slot, g);
  }

  /** Its rank as the order last placed it, held apart from the block (which may be placed again meanwhile). */
  SpillCandidate rankNow() {
    VictimGroup g = group();
    boolean placed = g != null && g.scheduled();
    return SpillCandidate.of(id(), size(), copy(), g != null && g.consumed(), lastAccessNanos(), placed,
        placed ? g.submissionTimeMillis() : 0, placed ? g.round() : 0, g != null && g.roundIncomplete(), arrival());
  }

  boolean isCopy() {
    return copy();
  }

  boolean inMemory() {
    return blocks.inMemory(slot);
  }

  /** Where the block lies on disk, when it is spilled. */
  Optional<SpillStore.Location> spilled() {
    return blocks.spilled(slot);
  }

  /** Whether a reducer has read the block. */
  boolean readByReducer() {
    return blocks.consumed(slot);
  }

  void markConsumed() {
    blocks.markConsumed(slot);
  }

  /** Used now: only the {@link BlockOrder} calls it, out of its group when its policy orders by last use. */
  void touch(long nowNanos) {
    blocks.touch(slot, nowNanos);
  }

  /** The block's bytes for one reader, who must release them; the memory stays until then. */
  ByteBuf retainedData() {
    return blocks.retainedData(this);
  }

  /**
   * The block's bytes for one local reader who copies them from the pool's shared memory: the
   * retained reference keeps the region from being reused until released. Empty when the block
   * holds no pool memory (an empty or a spilled block).
   */
  Optional<PinnedBytes> pin() {
    return blocks.pin(this);
  }

  /** The block now lives at {@code location} only; its memory goes back when no reader holds it. */
  void spilledTo(SpillStore.Location location) {
    blocks.spilledTo(slot, location);
  }

  /** A spilled block's bytes were moved to {@code location} (a spill file was compacted). */
  void movedOnDisk(SpillStore.Location location) {
    blocks.movedOnDisk(slot, location);
  }

  /** The block is back in memory, in {@code loaded}; returns where it lay on disk. */
  SpillStore.Location loaded(ByteBuf loaded) {
    return blocks.loaded(slot, loaded);
  }

  /** Drops the store's hold: the memory reference, or returns the spill location to free. */
  Optional<SpillStore.Location> release() {
    return blocks.release(slot);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof StoredBlock b && b.blocks == blocks && b.slot == slot;
  }

  @Override
  public int hashCode() {
    return System.identityHashCode(blocks) * 31 + slot;
  }

  @Override
  public String toString() {
    return id() + (inMemory() ? "" : spilled().isPresent() ? " (spilled)" : " (released)") + (copy() ? " (copy)" : "");
  }
}
