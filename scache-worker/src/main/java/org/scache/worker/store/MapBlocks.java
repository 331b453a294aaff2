package org.scache.worker.store;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.scache.worker.spill.SpillStore;

/**
 * The blocks a worker holds of one map attempt of a shuffle, one to a reduce: a map's partitions come together,
 * so they are kept as one entry and arrays indexed by a slot each, not as an object a block. A slot is a block
 * put; it is not used again once its block is removed (a block of that reduce put again takes a new slot), so that
 * a {@link StoredBlock} (this and a slot) stays the block it was made for.
 *
 * <p>Per block it keeps its reduce (4 bytes), size (4), place in the reserve (8), where its bytes are (a reference:
 * the pool, a buffer, a place on disk) and a byte of state: about 21 bytes, where an object a block took 88 and its
 * slot in an index 8. Its last use is kept only under a policy that orders by it, and its group of the spill order
 * only under a policy whose groups are one block each ({@link VictimGroup}); under the paper's policy a block's group
 * is found by its reduce and three bits of its state.
 *
 * <p>Guarded by the {@link BlockStore}, except the count of readers of a block's place in the reserve, which readers
 * release from any thread: that is guarded by this object.
 */
final class MapBlocks {
  /** In {@link #state}: a prefetched copy. */
  static final byte COPY = 1;
  /** In {@link #state}: the block is held (not removed). */
  private static final byte HELD = 2;
  /** In {@link #state}: a reducer has read the block. */
  private static final byte CONSUMED = 4;
  /** In {@link #state}: the block is in a group of the {@link BlockOrder}. */
  private static final byte IN_GROUP = 8;
  /** In {@link #state}: the group it is in holds blocks a reducer had read when they joined it. */
  private static final byte GROUP_CONSUMED = 16;
  /** In {@link #state}: the group it is in holds spilled blocks. */
  private static final byte GROUP_SPILLED = 32;

  private static final long NOWHERE = -1;
  private static final int OFFSET_BITS = 40;
  private static final int FIRST_CAPACITY = 4;

  private final ShuffleBlocks shuffle;
  private final int mapId;
  private final int attempt;
  /** Its place among the shuffle's map attempts on this worker, in the order their first blocks came. */
  private final int ordinal;
  /** The next attempt of the same map held, in {@link ShuffleBlocks}' list of the map's attempts. */
  MapBlocks otherAttempt;

  private int slots;
  private int held;
  private int copiesHeld;
  /** No slot before it holds a prefetched copy ({@link #firstHeldCopy}). */
  private int copyCursor;
  private int[] reduces;
  private int[] sizes;
  /** Where a block's bytes lie in the pool (segment, offset), or NOWHERE; kept after the store let go of them. */
  private long[] reserveAt;
  /**
   * Where a block's bytes are: the {@link MemoryPool} while the store holds them at {@link #reserveAt}; a buffer
   * ({@link ByteBuf}) when they are not kept as a place in the reserve; where they lie on disk
   * ({@link SpillStore.Location}); or null.
   */
  private Object[] where;
  private byte[] state;
  /** Each block's last use, under a policy that orders by it; else null. */
  private long[] lastUse;
  /** Each block's group of one block, under a policy whose groups are so; else null. */
  private VictimGroup[] singles;
  /** Slot + 1 of each reduce by open addressing, once a block came for a reduce not after the last's; else null. */
  private int[] lookup;
  /** Readers holding views of a block's place in the reserve, by slot, while any do. */
  private Map<Integer, Readers> readers;

  MapBlocks(ShuffleBlocks shuffle, int mapId, int attempt, int ordinal) {
    this.shuffle = shuffle;
    this.mapId = mapId;
    this.attempt = attempt;
    this.ordinal = ordinal;
    reduces = new int[FIRST_CAPACITY];
    sizes = new int[FIRST_CAPACITY];
    reserveAt = new long[FIRST_CAPACITY];
    where = new Object[FIRST_CAPACITY];
    state = new byte[FIRST_CAPACITY];
    if (shuffle.tracksLastUse()) {
      lastUse = new long[FIRST_CAPACITY];
    }
    if (shuffle.oneBlockGroups()) {
      singles = new VictimGroup[FIRST_CAPACITY];
    }
  }

  ShuffleBlocks shuffle() {
    return shuffle;
  }

  int mapId() {
    return mapId;
  }

  int attempt() {
    return attempt;
  }

  int ordinal() {
    return ordinal;
  }

  /** Blocks held. */
  int held() {
    return held;
  }

  /** Slots used, held or not. */
  int slots() {
    return slots;
  }

  /** Prefetched copies held. */
  int copiesHeld() {
    return copiesHeld;
  }

  // ---------------------------------------------------------------- slots

  /** The first slot holding a prefetched copy, or -1. */
  int firstHeldCopy() {
    // a slot not held, or held but not a copy, never holds a copy later: the search goes on where it ended
    for (; copyCursor < slots; copyCursor++) {
      if ((state[copyCursor] & (HELD | COPY)) == (HELD | COPY)) {
        return copyCursor;
      }
    }
    return -1;
  }

  /** Holds a block of {@code reduce}, which this does not hold, taking its bytes; its slot. */
  int add(int reduce, ArrivingBlock block) {
    if (slots == reduces.length) {
      grow(Math.max(FIRST_CAPACITY, slots + (slots >> 1)));
    }
    int s = slots++;
    reduces[s] = reduce;
    sizes[s] = block.size();
    state[s] = (byte) (HELD | (block.copy() ? COPY : 0));
    if (lastUse != null) {
      lastUse[s] = block.nowNanos();
    }
    ByteBuf data = block.takeData();
    if (data == null) {
      reserveAt[s] = NOWHERE;
      where[s] = block.spilledAt();
    } else if (data instanceof BlockBuffer b && b.canHandOver()) {
      MemoryPool.Region region = b.handOver();
      reserveAt[s] = ((long) region.segment() << OFFSET_BITS) | region.offset();
      where[s] = b.pool();
    } else {
      reserveAt[s] = NOWHERE;
      where[s] = data;
    }
    if (lookup != null) {
      index(s);
    } else if (s > 0 && reduce <= reduces[s - 1]) {
      // not after the last: found by a table from now on, not by a binary search
      buildLookup(lookupCapacity(reduces.length));
    }
    held++;
    if (block.copy()) {
      copiesHeld++;
    }
    return s;
  }

  /** The slot of the latest block put for {@code reduce}, held or not, or -1. */
  int slotOf(int reduce) {
    if (lookup == null) {
      int s = Arrays.binarySearch(reduces, 0, slots, reduce);
      return s >= 0 ? s : -1;
    }
    int mask = lookup.length - 1;
    for (int i = hash(reduce) & mask; lookup[i] != 0; i = (i + 1) & mask) {
      if (reduces[lookup[i] - 1] == reduce) {
        return lookup[i] - 1;
      }
    }
    return -1;
  }

  /** The slot of the held block of {@code reduce}, or -1. */
  int heldSlotOf(int reduce) {
    int s = slotOf(reduce);
    return s >= 0 && held(s) ? s : -1;
  }

  boolean held(int s) {
    return (state[s] & HELD) != 0;
  }

  /** The block of slot {@code s} is no longer held (its bytes are given back by {@link #release}). */
  void unhold(int s) {
    state[s] &= ~HELD;
    held--;
    if ((state[s] & COPY) != 0) {
      copiesHeld--;
    }
  }

  /** Its arrays at the slots used: a map attempt whose blocks all came keeps no room for more. */
  void trim() {
    if (slots < reduces.length) {
      grow(Math.max(1, slots));
    }
  }

  private void grow(int capacity) {
    reduces = Arrays.copyOf(reduces, capacity);
    sizes = Arrays.copyOf(sizes, capacity);
    reserveAt = Arrays.copyOf(reserveAt, capacity);
    where = Arrays.copyOf(where, capacity);
    state = Arrays.copyOf(state, capacity);
    if (lastUse != null) {
      lastUse = Arrays.copyOf(lastUse, capacity);
    }
    if (singles != null) {
      singles = Arrays.copyOf(singles, capacity);
    }
    if (lookup != null && lookup.length < lookupCapacity(capacity)) {
      buildLookup(lookupCapacity(capacity));
    }
  }

  private static int lookupCapacity(int slots) {
    return Integer.highestOneBit(Math.max(8, slots) * 2 - 1) << 1;
  }

  private void buildLookup(int capacity) {
    lookup = new int[capacity];
    for (int s = 0; s < slots; s++) {
      index(s);
    }
  }

  /** Points its reduce's entry at slot {@code s}, a later block of the reduce than any before. */
  private void index(int s) {
    int mask = lookup.length - 1;
    int i = hash(reduces[s]) & mask;
    while (lookup[i] != 0 && reduces[lookup[i] - 1] != reduces[s]) {
      i = (i + 1) & mask;
    }
    lookup[i] = s + 1;
  }

  private static int hash(int reduce) {
    int h = reduce * 0x9E3779B9;
    return h ^ (h >>> 16);
  }

  // ---------------------------------------------------------------- one block's state

  int reduce(int s) {
    return reduces[s];
  }

  int size(int s) {
    return sizes[s];
  }

  boolean copy(int s) {
    return (state[s] & COPY) != 0;
  }

  boolean consumed(int s) {
    return (state[s] & CONSUMED) != 0;
  }

  void markConsumed(int s) {
    state[s] |= CONSUMED;
  }

  long lastUse(int s) {
    return lastUse == null ? 0 : lastUse[s];
  }

  void touch(int s, long nowNanos) {
    if (lastUse != null) {
      lastUse[s] = nowNanos;
    }
  }

  /** The group of the spill order block {@code s} is in, or null. */
  VictimGroup group(int s) {
    if (singles != null) {
      return singles[s];
    }
    if ((state[s] & IN_GROUP) == 0) {
      return null;
    }
    return shuffle.group(VictimGroup.key(reduces[s], copy(s), (state[s] & GROUP_CONSUMED) != 0,
        (state[s] & GROUP_SPILLED) != 0 ? VictimGroup.SPILLED_UNREAD : VictimGroup.IN_MEMORY));
  }

  /** Block {@code s} is now in group {@code g} (of its reduce), or in none. */
  void group(int s, VictimGroup g) {
    if (singles != null) {
      singles[s] = g;
      return;
    }
    int bits = g == null ? 0 : IN_GROUP | (g.consumed() ? GROUP_CONSUMED : 0)
        | (g.where() == VictimGroup.SPILLED_UNREAD ? GROUP_SPILLED : 0);
    state[s] = (byte) ((state[s] & (COPY | HELD | CONSUMED)) | bits);
  }

  private boolean reserveHeld(int s) {
    return where[s] instanceof MemoryPool;
  }

  boolean inMemory(int s) {
    return where[s] instanceof ByteBuf || where[s] instanceof MemoryPool;
  }

  /** Where block {@code s} lies on disk, when it is spilled. */
  Optional<SpillStore.Location> spilled(int s) {
    return where[s] instanceof SpillStore.Location l ? Optional.of(l) : Optional.empty();
  }

  /** Whether block {@code s} lies on disk. */
  boolean isSpilled(int s) {
    return where[s] instanceof SpillStore.Location;
  }

  /** Block {@code s}'s bytes for one reader, who must release them; the memory stays until then. */
  ByteBuf retainedData(StoredBlock b) {
    int s = b.slot();
    if (reserveHeld(s)) {
      return view(b);
    }
    ByteBuf data = (ByteBuf) where[s];
    return data.isReadable() ? data.retainedDuplicate() : Unpooled.EMPTY_BUFFER;
  }

  /** Block {@code s}'s bytes for one local reader of the pool's shared memory; empty when not in the pool. */
  Optional<PinnedBytes> pin(StoredBlock b) {
    int s = b.slot();
    if (reserveHeld(s)) {
      return Optional.of(new PinnedBytes(view(b), segment(s), offset(s), sizes[s]));
    }
    if (where[s] instanceof BlockBuffer buf) {
      return Optional.of(new PinnedBytes(buf.retainedDuplicate(), buf.region().segment(), buf.region().offset(),
          buf.readableBytes()));
    }
    return Optional.empty();
  }

  private ReserveView view(StoredBlock b) {
    int s = b.slot();
    MemoryPool pool = (MemoryPool) where[s];
    synchronized (this) {
      if (readers == null) {
        readers = new HashMap<>();
      }
      readers.computeIfAbsent(s, k -> new Readers(reserveAt[s], sizes[s])).count++;
    }
    return new ReserveView(pool.slice(segment(s), offset(s), sizes[s]), b, pool);
  }

  /** A view of block {@code s}'s place in {@code pool} was released: the last after the store let go frees it. */
  void readerGone(int s, MemoryPool pool) {
    Readers r;
    synchronized (this) {
      r = readers.get(s);
      if (--r.count > 0) {
        return;
      }
      readers.remove(s);
      if (readers.isEmpty()) {
        readers = null;
      }
      if (!r.letGo) {
        return;
      }
    }
    r.free(pool);
  }

  /** The store lets go of block {@code s}'s place in the reserve, its bytes now {@code next}. */
  private void letGoOfReserve(int s, Object next) {
    MemoryPool pool = (MemoryPool) where[s];
    where[s] = next;
    synchronized (this) {
      Readers r = readers == null ? null : readers.get(s);
      if (r != null) {
        r.letGo = true;
        return;
      }
    }
    pool.freeRange(segment(s), offset(s), MemoryPool.align(sizes[s]));
  }

  private int segment(int s) {
    return (int) (reserveAt[s] >>> OFFSET_BITS);
  }

  private long offset(int s) {
    return reserveAt[s] & ((1L << OFFSET_BITS) - 1);
  }

  /** Block {@code s} now lives at {@code location} only; its memory goes back when no reader holds it. */
  void spilledTo(int s, SpillStore.Location location) {
    if (reserveHeld(s)) {
      letGoOfReserve(s, location);
      return;
    }
    ByteBuf old = (ByteBuf) where[s];
    where[s] = location;
    old.release();
  }

  /** Block {@code s}'s spilled bytes were moved to {@code location} (a spill file was compacted). */
  void movedOnDisk(int s, SpillStore.Location location) {
    where[s] = location;
  }

  /** Block {@code s} is back in memory, in {@code loaded}; returns where it lay on disk. */
  SpillStore.Location loaded(int s, ByteBuf loaded) {
    SpillStore.Location was = spilled(s).orElse(null);
    where[s] = loaded;
    return was;
  }

  /** Drops the store's hold of block {@code s}'s bytes: the memory reference, or returns the place on disk. */
  Optional<SpillStore.Location> release(int s) {
    if (reserveHeld(s)) {
      letGoOfReserve(s, null);
      return Optional.empty();
    }
    Object was = where[s];
    where[s] = null;
    if (was instanceof ByteBuf data) {
      data.release();
      return Optional.empty();
    }
    return Optional.ofNullable((SpillStore.Location) was);
  }

  /** Readers of one block's place in the reserve, and whether the store let go of it (the last reader frees it). */
  private static final class Readers {
    private final long reserveAt;
    private final int size;
    private int count;
    private boolean letGo;

    Readers(long reserveAt, int size) {
      this.reserveAt = reserveAt;
      this.size = size;
    }

    void free(MemoryPool pool) {
      pool.freeRange((int) (reserveAt >>> OFFSET_BITS), reserveAt & ((1L << OFFSET_BITS) - 1),
          MemoryPool.align(size));
    }
  }

  @Override
  public String toString() {
    return shuffle.key() + "/map_" + mapId + "." + attempt + " (" + held + " of " + slots + " blocks held)";
  }
}
