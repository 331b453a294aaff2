package org.scache.worker.store;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.Arrays;
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
 * is found by its reduce and three bits of its state. The first block's columns are fields of the entry, the others'
 * arrays, so that a map attempt of one block (a shuffle of one reduce) costs its entry alone.
 *
 * <p>Guarded by the {@link BlockStore}, except the count of readers of a block's place in the reserve, which readers
 * release from any thread ({@link ReserveReaders}).
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
  /** The arrays' room at first for the blocks after a map attempt's first. */
  private static final int FIRST_CAPACITY = 3;

  private final ShuffleBlocks shuffle;
  private final int mapId;
  private final int attempt;
  /** Its place among the shuffle's map attempts on this worker, in the order their first blocks came. */
  private final int ordinal;

  private int slots;
  private int held;
  private int copiesHeld;
  /** No slot before it holds a prefetched copy ({@link #firstHeldCopy}). */
  private int copyCursor;
  // the first block's columns, here: a map attempt of one block (a shuffle of one reduce) keeps no arrays
  private int reduce0;
  private int size0;
  private long reserveAt0;
  private Object where0;
  private byte state0;
  // the columns of the blocks after the first, slot s at s - 1; null while there is one
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
  /** Each block's last use (slot s at s), under a policy that orders by it; else null. */
  private long[] lastUse;
  /** Each block's group of one block (slot s at s), under a policy whose groups are so; else null. */
  private VictimGroup[] singles;
  /** Slot + 1 of each reduce by open addressing, once a block came for a reduce not after the last's; else null. */
  private int[] lookup;
  /** Readers holding views of its blocks' places in the reserve, once a block was read from there; else null. */
  private ReserveReaders readers;

  MapBlocks(ShuffleBlocks shuffle, int mapId, int attempt, int ordinal) {
    this.shuffle = shuffle;
    this.mapId = mapId;
    this.attempt = attempt;
    this.ordinal = ordinal;
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

  /** The first slot holding a prefetched copy, or -1. */
  int firstHeldCopy() {
    // a slot not held, or held but not a copy, never holds a copy later: the search goes on where it ended
    for (; copyCursor < slots; copyCursor++) {
      if ((stateAt(copyCursor) & (HELD | COPY)) == (HELD | COPY)) {
        return copyCursor;
      }
    }
    return -1;
  }

  // ---------------------------------------------------------------- slots

  /** Holds a block of {@code reduce}, which this does not hold, taking its bytes; its slot. */
  int add(int reduce, ArrivingBlock block) {
    int s = slots;
    if (s > 0 && (reduces == null || s - 1 == reduces.length)) {
      grow(reduces == null ? FIRST_CAPACITY : reduces.length + (reduces.length >> 1) + 1);
    }
    ensurePerBlock(s + 1);
    slots++;
    ByteBuf data = block.takeData();
    long at = NOWHERE;
    Object w;
    if (data == null) {
      w = block.spilledAt();
    } else if (data instanceof BlockBuffer b && b.canHandOver()) {
      MemoryPool.Region region = b.handOver();
      at = ReserveReaders.place(region.segment(), region.offset());
      w = b.pool();
    } else {
      w = data;
    }
    byte st = (byte) (HELD | (block.copy() ? COPY : 0));
    if (s == 0) {
      reduce0 = reduce;
      size0 = block.size();
      reserveAt0 = at;
      where0 = w;
      state0 = st;
    } else {
      reduces[s - 1] = reduce;
      sizes[s - 1] = block.size();
      reserveAt[s - 1] = at;
      where[s - 1] = w;
      state[s - 1] = st;
    }
    if (lastUse != null) {
      lastUse[s] = block.nowNanos();
    }
    if (lookup != null) {
      index(s);
    } else if (s > 0 && reduce <= reduceAt(s - 1)) {
      // not after the last: found by a table from now on, not by a binary search
      buildLookup(lookupCapacity(slots));
    }
    held++;
    if (block.copy()) {
      copiesHeld++;
    }
    return s;
  }

  /** The per-block arrays of a policy that has them, for {@code n} slots. */
  private void ensurePerBlock(int n) {
    boolean lru = shuffle.tracksLastUse();
    boolean one = shuffle.oneBlockGroups();
    if (!lru && !one) {
      return;
    }
    int have = lastUse != null ? lastUse.length : singles != null ? singles.length : 0;
    if (n <= have) {
      return;
    }
    int capacity = Math.max(n, have + (have >> 1) + 1);
    if (lru) {
      lastUse = lastUse == null ? new long[capacity] : Arrays.copyOf(lastUse, capacity);
    }
    if (one) {
      singles = singles == null ? new VictimGroup[capacity] : Arrays.copyOf(singles, capacity);
    }
  }

  /** The slot of the latest block put for {@code reduce}, held or not, or -1. */
  int slotOf(int reduce) {
    if (slots == 0) {
      return -1;
    }
    if (lookup == null) {
      if (reduce0 == reduce) {
        return 0;
      }
      if (reduces == null || reduce < reduce0) {
        return -1;
      }
      int s = Arrays.binarySearch(reduces, 0, slots - 1, reduce);
      return s >= 0 ? s + 1 : -1;
    }
    int mask = lookup.length - 1;
    for (int i = hash(reduce) & mask; lookup[i] != 0; i = (i + 1) & mask) {
      if (reduceAt(lookup[i] - 1) == reduce) {
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
    return (stateAt(s) & HELD) != 0;
  }

  /** The block of slot {@code s} is no longer held (its bytes are given back by {@link #release}). */
  void unhold(int s) {
    byte st = stateAt(s);
    state(s, (byte) (st & ~HELD));
    held--;
    if ((st & COPY) != 0) {
      copiesHeld--;
    }
  }

  /** Its arrays at the slots used: a map attempt whose blocks all came keeps no room for more. */
  void trim() {
    if (reduces != null && slots - 1 < reduces.length) {
      grow(slots - 1);
    }
    if (lastUse != null && slots < lastUse.length) {
      lastUse = Arrays.copyOf(lastUse, slots);
    }
    if (singles != null && slots < singles.length) {
      singles = Arrays.copyOf(singles, slots);
    }
  }

  /** The columns of the blocks after the first, for {@code capacity} of them. */
  private void grow(int capacity) {
    if (reduces == null) {
      reduces = new int[capacity];
      sizes = new int[capacity];
      reserveAt = new long[capacity];
      where = new Object[capacity];
      state = new byte[capacity];
      return;
    }
    reduces = Arrays.copyOf(reduces, capacity);
    sizes = Arrays.copyOf(sizes, capacity);
    reserveAt = Arrays.copyOf(reserveAt, capacity);
    where = Arrays.copyOf(where, capacity);
    state = Arrays.copyOf(state, capacity);
    if (lookup != null && lookup.length < lookupCapacity(capacity + 1)) {
      buildLookup(lookupCapacity(capacity + 1));
    }
  }

  /** A power of two at least twice {@code slots}. */
  private static int lookupCapacity(int slots) {
    return Integer.highestOneBit(Math.max(4, slots) * 2 - 1) << 1;
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
    int reduce = reduceAt(s);
    int i = hash(reduce) & mask;
    while (lookup[i] != 0 && reduceAt(lookup[i] - 1) != reduce) {
      i = (i + 1) & mask;
    }
    lookup[i] = s + 1;
  }

  private static int hash(int reduce) {
    int h = reduce * 0x9E3779B9;
    return h ^ (h >>> 16);
  }

  // ---------------------------------------------------------------- columns

  private int reduceAt(int s) {
    return s == 0 ? reduce0 : reduces[s - 1];
  }

  private int sizeAt(int s) {
    return s == 0 ? size0 : sizes[s - 1];
  }

  private long reserveAtOf(int s) {
    return s == 0 ? reserveAt0 : reserveAt[s - 1];
  }

  private Object whereAt(int s) {
    return s == 0 ? where0 : where[s - 1];
  }

  private void where(int s, Object w) {
    if (s == 0) {
      where0 = w;
    } else {
      where[s - 1] = w;
    }
  }

  private byte stateAt(int s) {
    return s == 0 ? state0 : state[s - 1];
  }

  private void state(int s, byte st) {
    if (s == 0) {
      state0 = st;
    } else {
      state[s - 1] = st;
    }
  }

  // ---------------------------------------------------------------- one block's state

  int reduce(int s) {
    return reduceAt(s);
  }

  int size(int s) {
    return sizeAt(s);
  }

  boolean copy(int s) {
    return (stateAt(s) & COPY) != 0;
  }

  boolean consumed(int s) {
    return (stateAt(s) & CONSUMED) != 0;
  }

  void markConsumed(int s) {
    state(s, (byte) (stateAt(s) | CONSUMED));
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
    byte st = stateAt(s);
    if ((st & IN_GROUP) == 0) {
      return null;
    }
    return shuffle.group(VictimGroup.key(reduceAt(s), (st & COPY) != 0, (st & GROUP_CONSUMED) != 0,
        (st & GROUP_SPILLED) != 0 ? VictimGroup.SPILLED_UNREAD : VictimGroup.IN_MEMORY));
  }

  /** Block {@code s} is now in group {@code g} (of its reduce), or in none. */
  void group(int s, VictimGroup g) {
    if (singles != null) {
      singles[s] = g;
      return;
    }
    int bits = g == null ? 0 : IN_GROUP | (g.consumed() ? GROUP_CONSUMED : 0)
        | (g.where() == VictimGroup.SPILLED_UNREAD ? GROUP_SPILLED : 0);
    state(s, (byte) ((stateAt(s) & (COPY | HELD | CONSUMED)) | bits));
  }

  private boolean reserveHeld(int s) {
    return whereAt(s) instanceof MemoryPool;
  }

  boolean inMemory(int s) {
    return whereAt(s) instanceof ByteBuf || whereAt(s) instanceof MemoryPool;
  }

  /** Where block {@code s} lies on disk, when it is spilled. */
  Optional<SpillStore.Location> spilled(int s) {
    return whereAt(s) instanceof SpillStore.Location l ? Optional.of(l) : Optional.empty();
  }

  /** Whether block {@code s} lies on disk. */
  boolean isSpilled(int s) {
    return whereAt(s) instanceof SpillStore.Location;
  }

  /** Block {@code s}'s bytes for one reader, who must release them; the memory stays until then. */
  ByteBuf retainedData(StoredBlock b) {
    int s = b.slot();
    if (reserveHeld(s)) {
      return view(b);
    }
    ByteBuf data = (ByteBuf) whereAt(s);
    return data.isReadable() ? data.retainedDuplicate() : Unpooled.EMPTY_BUFFER;
  }

  /** Block {@code s}'s bytes for one local reader of the pool's shared memory; empty when not in the pool. */
  Optional<PinnedBytes> pin(StoredBlock b) {
    int s = b.slot();
    if (reserveHeld(s)) {
      return Optional.of(new PinnedBytes(view(b), segment(s), offset(s), sizeAt(s)));
    }
    if (whereAt(s) instanceof BlockBuffer buf) {
      return Optional.of(new PinnedBytes(buf.retainedDuplicate(), buf.region().segment(), buf.region().offset(),
          buf.readableBytes()));
    }
    return Optional.empty();
  }

  private ReserveView view(StoredBlock b) {
    int s = b.slot();
    MemoryPool pool = (MemoryPool) whereAt(s);
    if (readers == null) {
      readers = new ReserveReaders();
    }
    readers.came(s, reserveAtOf(s), sizeAt(s));
    return new ReserveView(pool.slice(segment(s), offset(s), sizeAt(s)), readers, s, pool);
  }

  /** The store lets go of block {@code s}'s place in the reserve, its bytes now {@code next}. */
  private void letGoOfReserve(int s, Object next) {
    MemoryPool pool = (MemoryPool) whereAt(s);
    where(s, next);
    if (readers == null || !readers.letGo(s)) {
      ReserveReaders.free(pool, reserveAtOf(s), sizeAt(s));
    }
  }

  private int segment(int s) {
    return ReserveReaders.segment(reserveAtOf(s));
  }

  private long offset(int s) {
    return ReserveReaders.offset(reserveAtOf(s));
  }

  /** Block {@code s} now lives at {@code location} only; its memory goes back when no reader holds it. */
  void spilledTo(int s, SpillStore.Location location) {
    if (reserveHeld(s)) {
      letGoOfReserve(s, location);
      return;
    }
    ByteBuf old = (ByteBuf) whereAt(s);
    where(s, location);
    old.release();
  }

  /** Block {@code s}'s spilled bytes were moved to {@code location} (a spill file was compacted). */
  void movedOnDisk(int s, SpillStore.Location location) {
    where(s, location);
  }

  /** Block {@code s} is back in memory, in {@code loaded}; returns where it lay on disk. */
  SpillStore.Location loaded(int s, ByteBuf loaded) {
    SpillStore.Location was = spilled(s).orElse(null);
    where(s, loaded);
    return was;
  }

  /** Drops the store's hold of block {@code s}'s bytes: the memory reference, or returns the place on disk. */
  Optional<SpillStore.Location> release(int s) {
    if (reserveHeld(s)) {
      letGoOfReserve(s, null);
      return Optional.empty();
    }
    Object was = whereAt(s);
    where(s, null);
    if (was instanceof ByteBuf data) {
      data.release();
      return Optional.empty();
    }
    return Optional.ofNullable((SpillStore.Location) was);
  }

  @Override
  public String toString() {
    return shuffle.key() + "/map_" + mapId + "." + attempt + " (" + held + " of " + slots + " blocks held)";
  }
}
