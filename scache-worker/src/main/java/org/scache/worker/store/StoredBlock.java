package org.scache.worker.store;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import org.scache.common.BlockId;
import org.scache.common.ShuffleKey;
import org.scache.worker.spill.SpillCandidate;
import org.scache.worker.spill.SpillStore;

/**
 * A block held by the store: its id and size, and either its bytes in the reserve or where it lies
 * in a spill file (an empty block holds neither memory nor disk). Also whether it is a prefetched
 * copy, whether a reducer has read it, and when it was last used. The mutable state is guarded by
 * the {@link BlockStore}.
 *
 * <p>A block that came whole into a region of the reserve keeps that region as two numbers, its place and a count
 * of the readers holding its bytes, not as buffer objects (a filled {@link BlockBuffer} is handed over): each read
 * makes a {@link ReserveView}, and the region goes back to the pool once the store has let go of it and the last
 * view is released. Other bytes in memory (a block loaded back from disk, a buffer shared when it was taken) are
 * kept as the buffer they came in.
 *
 * <p>The block is also its own entry in its {@link VictimGroup} of the {@link BlockOrder}: as a {@link SpillCandidate}
 * it answers what the order saw when it last placed it (whether a reducer had read it, its round), which its group
 * holds, frozen until ranked again, so that the order's trees find it as they sorted it ({@link #readByReducer()} is
 * the block's state now); its last use changes only through the order, which takes it out of its group first when
 * its policy orders by it.
 *
 * <p>The block keeps its id as its shuffle and three numbers, not as a {@link BlockId}: once held, its shuffle is the
 * store's one key of it ({@link ShuffleBlocks}), so that a block keeps no name of its application of its own (a put
 * decoded from the wire brings one). {@link #id()} makes the id when asked.
 */
final class StoredBlock extends VictimTree.Node<StoredBlock> implements SpillCandidate {
  private static final long NOWHERE = -1;
  private static final int OFFSET_BITS = 40;
  /** Set in {@link #holds} once the store let go of the region: the last reader then frees it. */
  private static final int LET_GO = 1 << 30;
  /** In {@link #state}: a prefetched copy. */
  private static final byte COPY = 1;
  /** In {@link #state}: the {@link BlockOrder} has placed the block (and not forgotten it since). */
  private static final byte RANKED = 2;
  /** In {@link #state}: a reducer has read the block. */
  private static final byte CONSUMED = 4;
  private static final AtomicIntegerFieldUpdater<StoredBlock> HOLDS =
      AtomicIntegerFieldUpdater.newUpdater(StoredBlock.class, "holds");

  /** Its shuffle: the one the put named until the block is held, then the store's one key of it. */
  private ShuffleKey shuffle;
  private final int mapId;
  private final int attempt;
  private final int reduceId;
  /** Its bytes: a block is never larger than a segment of the reserve, or than a buffer, were it put to disk. */
  private final int size;
  /** COPY, RANKED and CONSUMED. */
  private byte state;
  /**
   * Where its bytes are: the {@link MemoryPool} while the store holds them at {@link #reserveAt}; a buffer
   * ({@link ByteBuf}) when they are not kept as a place in the reserve; where they lie on disk
   * ({@link SpillStore.Location}); or null.
   */
  private Object where;
  /**
   * Where the bytes lie in the pool (segment, offset) or NOWHERE; kept after the store let go, for the last reader,
   * whose view names the pool.
   */
  private final long reserveAt;
  /** Readers holding views of the region, plus {@link #LET_GO} once the store let go of it. */
  private volatile int holds;
  /** Its last use; changed only through the {@link BlockOrder}, which orders by it under some policies. */
  private long lastAccessNanos;
  /**
   * The group of the {@link BlockOrder} it is in, which holds what the order saw when it last placed the block (its
   * reduce's place, whether its round was kept in part): null while in none.
   */
  VictimGroup group;
  /** This block's neighbours among its map's and its reduce's blocks of its shuffle ({@link ShuffleBlocks}). */
  StoredBlock prevOfMap;
  StoredBlock nextOfMap;
  StoredBlock prevOfReduce;
  StoredBlock nextOfReduce;

  /** A block whose bytes are in {@code data}, which it takes: a filled region of the reserve is kept as a place. */
  StoredBlock(BlockId id, ByteBuf data, boolean copy, long nowNanos) {
    this.shuffle = id.shuffle();
    this.mapId = id.mapId();
    this.attempt = id.attempt();
    this.reduceId = id.reduceId();
    this.size = data.readableBytes();
    this.state = copy ? COPY : 0;
    this.lastAccessNanos = nowNanos;
    if (data instanceof BlockBuffer b && b.canHandOver()) {
      MemoryPool.Region region = b.handOver();
      this.reserveAt = ((long) region.segment() << OFFSET_BITS) | region.offset();
      this.where = b.pool();
    } else {
      this.reserveAt = NOWHERE;
      this.where = data;
    }
  }

  /** A block that went straight to disk when it was put. */
  StoredBlock(BlockId id, int size, SpillStore.Location spilled, long nowNanos) {
    this.shuffle = id.shuffle();
    this.mapId = id.mapId();
    this.attempt = id.attempt();
    this.reduceId = id.reduceId();
    this.size = size;
    this.where = spilled;
    this.lastAccessNanos = nowNanos;
    this.reserveAt = NOWHERE;
  }

  /** Its id, made when asked (the block keeps its parts). */
  @Override
  public BlockId id() {
    return new BlockId(shuffle.appId(), shuffle.shuffleId(), mapId, attempt, reduceId);
  }

  ShuffleKey shuffle() {
    return shuffle;
  }

  /** Its shuffle is held under {@code key}, equal to its own: the block keeps that one. */
  void keyedBy(ShuffleKey key) {
    shuffle = key;
  }

  @Override
  public String appId() {
    return shuffle.appId();
  }

  @Override
  public int shuffleId() {
    return shuffle.shuffleId();
  }

  @Override
  public int mapId() {
    return mapId;
  }

  @Override
  public int attempt() {
    return attempt;
  }

  @Override
  public int reduceId() {
    return reduceId;
  }

  @Override
  public long size() {
    return size;
  }

  @Override
  public boolean copy() {
    return (state & COPY) != 0;
  }

  /** The order saw it read by a reducer when it last placed it ({@link #readByReducer()} is now). */
  @Override
  public boolean consumed() {
    return group != null && group.consumed();
  }

  /** Its last use (the order places it again when it changes, under a policy that orders by it). */
  @Override
  public long lastAccessNanos() {
    return lastAccessNanos;
  }

  @Override
  public boolean scheduled() {
    return group != null && group.scheduled();
  }

  @Override
  public long submissionTimeMillis() {
    return group == null ? 0 : group.submissionTimeMillis();
  }

  @Override
  public int round() {
    return group == null ? 0 : group.round();
  }

  @Override
  public boolean roundIncomplete() {
    return group != null && group.roundIncomplete();
  }

  /** Whether the order has placed this block (and not forgotten it since). */
  boolean ranked() {
    return (state & RANKED) != 0;
  }

  /** The order placed the block: it is in its shuffle's lists, and in {@link #group} if any. */
  void ranked(boolean ranked) {
    state = (byte) (ranked ? state | RANKED : state & ~RANKED);
  }

  /** Its rank as the order last placed it, held apart from the block (which may be placed again meanwhile). */
  SpillCandidate rankNow() {
    return SpillCandidate.of(id(), size, copy(), consumed(), lastAccessNanos, scheduled(), submissionTimeMillis(),
        round(), roundIncomplete());
  }

  boolean isCopy() {
    return copy();
  }

  private boolean reserveHeld() {
    return where instanceof MemoryPool;
  }

  private ByteBuf data() {
    return where instanceof ByteBuf b ? b : null;
  }

  boolean inMemory() {
    return where instanceof ByteBuf || where instanceof MemoryPool;
  }

  /** Where the block lies on disk, when it is spilled. */
  Optional<SpillStore.Location> spilled() {
    return where instanceof SpillStore.Location l ? Optional.of(l) : Optional.empty();
  }

  /** Whether a reducer has read the block. */
  boolean readByReducer() {
    return (state & CONSUMED) != 0;
  }

  void markConsumed() {
    state |= CONSUMED;
  }

  /** Used now: only the {@link BlockOrder} calls it, out of its sets when its policy orders by last use. */
  void touch(long nowNanos) {
    lastAccessNanos = nowNanos;
  }

  /** The block's bytes for one reader, who must release them; the memory stays until then. */
  ByteBuf retainedData() {
    if (reserveHeld()) {
      return view();
    }
    ByteBuf data = data();
    return data.isReadable() ? data.retainedDuplicate() : Unpooled.EMPTY_BUFFER;
  }

  /**
   * The block's bytes for one local reader who copies them from the pool's shared memory: the
   * retained reference keeps the region from being reused until released. Empty when the block
   * holds no pool memory (an empty or a spilled block).
   */
  Optional<PinnedBytes> pin() {
    if (reserveHeld()) {
      return Optional.of(new PinnedBytes(view(), segment(), offset(), size));
    }
    if (where instanceof BlockBuffer b) {
      return Optional.of(new PinnedBytes(b.retainedDuplicate(), b.region().segment(), b.region().offset(),
          b.readableBytes()));
    }
    return Optional.empty();
  }

  private ReserveView view() {
    MemoryPool pool = (MemoryPool) where;
    HOLDS.incrementAndGet(this);
    return new ReserveView(pool.slice(segment(), offset(), size), this, pool);
  }

  /** A view of the region in {@code pool} was released: the last one after the store let go gives it back. */
  void readerGone(MemoryPool pool) {
    if (HOLDS.decrementAndGet(this) == LET_GO) {
      freeReserve(pool);
    }
  }

  /** The store lets go of the region, its bytes now {@code next}; it goes back now, or when the last view goes. */
  private void letGoOfReserve(Object next) {
    MemoryPool pool = (MemoryPool) where;
    where = next;
    if (HOLDS.addAndGet(this, LET_GO) == LET_GO) {
      freeReserve(pool);
    }
  }

  private void freeReserve(MemoryPool pool) {
    pool.freeRange(segment(), offset(), MemoryPool.align(size));
  }

  private int segment() {
    return (int) (reserveAt >>> OFFSET_BITS);
  }

  private long offset() {
    return reserveAt & ((1L << OFFSET_BITS) - 1);
  }

  /** The block now lives at {@code location} only; its memory goes back when no reader holds it. */
  void spilledTo(SpillStore.Location location) {
    if (reserveHeld()) {
      letGoOfReserve(location);
      return;
    }
    ByteBuf old = data();
    where = location;
    old.release();
  }

  /** A spilled block's bytes were moved to {@code location} (a spill file was compacted). */
  void movedOnDisk(SpillStore.Location location) {
    where = location;
  }

  /** The block is back in memory, in {@code loaded}; returns where it lay on disk. */
  SpillStore.Location loaded(ByteBuf loaded) {
    SpillStore.Location was = spilled().orElse(null);
    where = loaded;
    return was;
  }

  /** Drops the store's hold: the memory reference, or returns the spill location to free. */
  Optional<SpillStore.Location> release() {
    if (reserveHeld()) {
      letGoOfReserve(null);
      return Optional.empty();
    }
    Object was = where;
    where = null;
    if (was instanceof ByteBuf data) {
      data.release();
      return Optional.empty();
    }
    return Optional.ofNullable((SpillStore.Location) was);
  }

  @Override
  public String toString() {
    return id() + (inMemory() ? "" : where != null ? " (spilled)" : " (released)") + (copy() ? " (copy)" : "");
  }
}
