package org.scache.worker.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.scache.common.BlockId;
import org.scache.common.ScacheException;
import org.scache.common.ShuffleKey;
import org.scache.common.protocol.Status;
import org.scache.worker.spill.SpillPolicy;

class BlockStoreTest {
  @TempDir
  Path dir;
  private MemoryPool pool;
  private WorkerStorage storage;
  private BlockStore store;

  @BeforeEach
  void open() throws Exception {
    pool = new MemoryPool(dir, "test", 1 << 20, 512 << 10, false);
    storage = WorkerStorage.inMemory(pool);
    store = storage.store();
  }

  @AfterEach
  void close() {
    storage.close();
    pool.close();
  }

  private void put(BlockId id, int length, int fill) {
    PendingPut p = storage.puts().begin(id, length);
    ByteBuf data = Unpooled.buffer(length);
    for (int i = 0; i < length; i++) {
      data.writeByte(fill);
    }
    p.write(data);
    data.release();
    storage.puts().commit(p);
  }

  @Test
  void put_thenRead_returnsTheBytes_andAccountsAlignedMemory() {
    BlockId id = new BlockId("a", 0, 0, 0, 0);
    put(id, 100, 7);
    ByteBuf b = store.read(id).orElseThrow();
    assertEquals(100, b.readableBytes());
    assertEquals(7, b.getByte(99));
    b.release();
    assertEquals(100, store.storedBytes());
    assertEquals(MemoryPool.align(100), pool.usedBytes());
  }

  @Test
  void samePutTwice_keepsTheFirst_andGivesTheSecondCopysMemoryBack() {
    BlockId id = new BlockId("a", 0, 0, 0, 0);
    put(id, 100, 1);
    put(id, 100, 2);
    ByteBuf b = store.read(id).orElseThrow();
    assertEquals(1, b.getByte(0));
    b.release();
    assertEquals(MemoryPool.align(100), pool.usedBytes());
  }

  @Test
  void mapFinished_dropsOtherAttemptsOfThatMapOnly() {
    ShuffleKey s = new ShuffleKey("a", 0);
    put(new BlockId("a", 0, 0, 0, 0), 10, 1);
    put(new BlockId("a", 0, 0, 1, 0), 10, 2);
    put(new BlockId("a", 0, 1, 0, 0), 10, 3);
    store.mapFinished(s, 0, 1);
    assertTrue(store.get(new BlockId("a", 0, 0, 0, 0)).isEmpty());
    assertTrue(store.get(new BlockId("a", 0, 0, 1, 0)).isPresent());
    assertTrue(store.get(new BlockId("a", 0, 1, 0, 0)).isPresent());
  }

  @Test
  void putBeyondReserve_isRefused_andNothingIsHeldByIt() {
    put(new BlockId("a", 0, 0, 0, 0), 500 << 10, 1);
    put(new BlockId("a", 0, 1, 0, 0), 500 << 10, 1);
    long used = pool.usedBytes();
    ScacheException e = assertThrows(ScacheException.class, () -> storage.puts().begin(new BlockId("a", 0, 2, 0, 0),
        100 << 10));
    assertEquals(Status.STORE_FULL, e.status());
    assertEquals(used, pool.usedBytes());
    e = assertThrows(ScacheException.class, () -> storage.puts().begin(new BlockId("a", 0, 3, 0, 0), 600 << 10));
    assertEquals(Status.BLOCK_TOO_LARGE, e.status());
  }

  @Test
  void removedBlock_staysReadableUntilTheReaderReleasesIt_thenItsMemoryIsFree() {
    BlockId id = new BlockId("a", 0, 0, 0, 0);
    put(id, 1000, 5);
    ByteBuf reading = store.read(id).orElseThrow();
    store.removeApplication("a");
    assertFalse(store.read(id).isPresent());
    assertEquals(MemoryPool.align(1000), pool.usedBytes(), "memory is held while a reader sends it");
    assertEquals(5, reading.getByte(999));
    reading.release();
    assertEquals(0, pool.usedBytes());
    assertEquals(0, store.storedBytes());
  }

  @Test
  void blockReadByManyAndPinned_givesItsMemoryBackWhenTheLastOfThemReleases_inAnyOrder() {
    BlockId id = new BlockId("a", 0, 0, 0, 0);
    put(id, 300, 9);
    ByteBuf first = store.read(id).orElseThrow();
    PinnedBytes pinned = store.pin(id).orElseThrow();
    ByteBuf second = store.read(id).orElseThrow();
    assertEquals(300, pinned.length());
    first.release();
    store.removeApplication("a");
    assertEquals(MemoryPool.align(300), pool.usedBytes(), "a pin and a reader still hold it");
    pinned.reference().release();
    assertEquals(MemoryPool.align(300), pool.usedBytes(), "a reader still holds it");
    assertEquals(9, second.getByte(299));
    second.release();
    assertEquals(0, pool.usedBytes());
    put(id, 300, 4);
    ByteBuf again = store.read(id).orElseThrow();
    assertEquals(4, again.getByte(0), "the region given back is taken again");
    again.release();
  }

  @Test
  void abortedPut_givesItsMemoryBack_andEmptyBlocksTakeNone() {
    PendingPut p = storage.puts().begin(new BlockId("a", 0, 0, 0, 0), 4096);
    assertEquals(MemoryPool.align(4096), pool.usedBytes());
    p.abort();
    assertEquals(0, pool.usedBytes());
    PendingPut empty = storage.puts().begin(new BlockId("a", 0, 1, 0, 0), 0);
    assertTrue(storage.puts().commit(empty));
    assertEquals(0, pool.usedBytes());
    assertEquals(0, store.read(new BlockId("a", 0, 1, 0, 0)).orElseThrow().readableBytes());
  }

  @Test
  void putsInFlight_countAgainstTheApplicationsBlockShare_untilCommittedOrAborted() {
    storage.close();
    storage = new WorkerStorage(pool, java.util.Optional.empty(), org.scache.worker.spill.SpillPolicy.contextAware(),
        new PlacementBook(), org.scache.common.Clock.SYSTEM, new org.scache.worker.counters.WorkerCounters(), 1 << 20,
        BlockQuota.of(4, 0.5, 0));
    store = storage.store();
    PendingPut first = storage.puts().begin(new BlockId("a", 0, 0, 0, 0), 100);
    PendingPut second = storage.puts().begin(new BlockId("a", 0, 1, 0, 0), 100);

    ScacheException refused = assertThrows(ScacheException.class,
        () -> storage.puts().begin(new BlockId("a", 0, 2, 0, 0), 100));
    assertEquals(Status.LIMIT_EXCEEDED, refused.status(), "two puts in flight are the application's share of 4");
    assertEquals(0, store.blockCount(), "though no block is held yet");
    PendingPut other = storage.puts().begin(new BlockId("b", 0, 0, 0, 0), 100);

    first.abort();
    PendingPut third = storage.puts().begin(new BlockId("a", 0, 2, 0, 0), 100);
    third.write(Unpooled.wrappedBuffer(new byte[100]));
    storage.puts().commit(third);
    assertTrue(store.contains(new BlockId("a", 0, 2, 0, 0)), "a committed put counts once, as its block");
    assertThrows(ScacheException.class, () -> storage.puts().begin(new BlockId("a", 0, 3, 0, 0), 100));
    second.abort();
    other.abort();
    storage.puts().begin(new BlockId("a", 0, 3, 0, 0), 100).abort();
  }
  /**
   * A limit derived from the heap counts the heap the entries take: a wide map attempt's blocks a unit each and its
   * entry 4, so 100 units hold 96 blocks of one map attempt but 20 of one block each; the entry comes back with its
   * attempt's last block.
   */
  @Test
  void aLimitDerivedFromTheHeap_countsAMapAttemptsEntry_soAWideShuffleHoldsMoreBlocksThanMapsOfOne() {
    long heapOf100Units = 2 * BlockQuota.HEAP_BYTES_PER_UNIT * 100;
    useQuota(BlockQuota.of(0, 1.0, heapOf100Units), SpillPolicy.contextAware());
    assertEquals(new BlockQuota.Limits(100, 100), storage.blockLimits());
    int wide = 0;
    while (putEmpty(new BlockId("a", 0, 0, 0, wide))) {
      wide++;
    }
    assertEquals(96, wide, "one map attempt's entry (4) and its blocks (1 each)");
    assertEquals(100, storage.heldAsLimited());
    store.removeApplication("a");
    assertEquals(0, storage.heldAsLimited(), "each block's unit and its attempt's entry given back");

    int narrow = 0;
    while (putEmpty(new BlockId("a", 0, narrow, 0, 0))) {
      narrow++;
    }
    assertEquals(20, narrow, "maps of one block each: 5 units a block");
    store.reduceCommitted(new ShuffleKey("a", 0), 0);
    assertEquals(0, storage.heldAsLimited());

    useQuota(BlockQuota.of(0, 1.0, heapOf100Units, app -> app, SpillPolicy.lru()), SpillPolicy.lru());
    int lru = 0;
    while (putEmpty(new BlockId("a", 0, 0, 0, lru))) {
      lru++;
    }
    assertEquals(24, lru, "under LRU a block has a group of its own: 4 units");
  }

  /** Puts an empty block; false when the limit refused it. */
  private boolean putEmpty(BlockId id) {
    try {
      PendingPut put = storage.puts().begin(id, 0);
      return storage.puts().commit(put);
    } catch (ScacheException e) {
      assertEquals(Status.LIMIT_EXCEEDED, e.status());
      assertTrue(e.getMessage().contains("units of block metadata"), e.getMessage());
      return false;
    }
  }

  private void useQuota(BlockQuota quota, SpillPolicy policy) {
    storage.close();
    storage = new WorkerStorage(pool, java.util.Optional.empty(), policy, new PlacementBook(),
        org.scache.common.Clock.SYSTEM, new org.scache.worker.counters.WorkerCounters(), 1 << 20, quota);
    store = storage.store();
  }

  @Test
  void mapBlockAtTheCountLimit_dropsTheOwnersOldestCopies_butACopyNeverDropsAnother() {
    limitTo8BlocksHalfAnOwners();
    BlockId firstCopy = new BlockId("a", 0, 7, 0, 0);
    BlockId secondCopy = new BlockId("a", 0, 7, 0, 1);
    assertTrue(store.addCopy(firstCopy, Unpooled.wrappedBuffer(new byte[] {1})));
    assertTrue(store.addCopy(secondCopy, Unpooled.wrappedBuffer(new byte[] {2})));
    assertTrue(store.addCopy(new BlockId("b", 0, 7, 0, 0), Unpooled.wrappedBuffer(new byte[] {3})));
    put(new BlockId("a", 0, 0, 0, 0), 10, 1);
    put(new BlockId("a", 0, 1, 0, 0), 10, 1);
    assertFalse(store.addCopy(new BlockId("a", 0, 8, 0, 0), Unpooled.wrappedBuffer(new byte[] {4})),
        "a copy finds application a at its share of 4 and is not taken");

    put(new BlockId("a", 0, 2, 0, 0), 10, 1);
    assertFalse(store.contains(firstCopy), "the oldest copy of a made room for a's map block");
    assertTrue(store.contains(secondCopy));
    put(new BlockId("a", 0, 3, 0, 0), 10, 1);
    assertFalse(store.contains(secondCopy));
    assertTrue(store.contains(new BlockId("b", 0, 7, 0, 0)), "another owner's copy stays");

    ScacheException refused = assertThrows(ScacheException.class,
        () -> storage.puts().begin(new BlockId("a", 0, 4, 0, 0), 10));
    assertEquals(Status.LIMIT_EXCEEDED, refused.status(), "with no copy of a left, a's map block is refused");
  }

  @Test
  void copiesFreedOutOfTurn_areSkipped_andTheOldestHeldCopyMakesRoom() {
    limitTo8BlocksHalfAnOwners();
    BlockId first = new BlockId("a", 0, 7, 0, 0);
    BlockId second = new BlockId("a", 0, 7, 0, 1);
    BlockId third = new BlockId("a", 0, 7, 0, 2);
    for (BlockId copy : new BlockId[] {first, second, third}) {
      assertTrue(store.addCopy(copy, Unpooled.wrappedBuffer(new byte[] {1})));
    }
    assertEquals(1, store.reduceCommitted(new org.scache.common.ShuffleKey("a", 0), 0), "the oldest copy is freed");
    put(new BlockId("a", 0, 0, 0, 0), 10, 1);
    put(new BlockId("a", 0, 1, 0, 0), 10, 1);

    put(new BlockId("a", 0, 2, 0, 0), 10, 1);
    assertFalse(store.contains(second), "the oldest copy still held made room");
    assertTrue(store.contains(third));
    put(new BlockId("a", 0, 3, 0, 0), 10, 1);
    assertFalse(store.contains(third));
    assertThrows(ScacheException.class, () -> storage.puts().begin(new BlockId("a", 0, 4, 0, 0), 10));
  }

  /** The store again, limited to 8 blocks, an application's share half of them. */
  private void limitTo8BlocksHalfAnOwners() {
    storage.close();
    storage = new WorkerStorage(pool, java.util.Optional.empty(), org.scache.worker.spill.SpillPolicy.contextAware(),
        new PlacementBook(), org.scache.common.Clock.SYSTEM, new org.scache.worker.counters.WorkerCounters(), 1 << 20,
        BlockQuota.of(8, 0.5, 0));
    store = storage.store();
  }
}
