package org.scache.worker.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.scache.common.BlockId;
import org.scache.common.ScacheException;
import org.scache.common.ShuffleKey;
import org.scache.common.WorkerInfo;
import org.scache.common.protocol.Status;
import org.scache.common.shuffle.BlockSize;
import org.scache.common.shuffle.ReduceAssignment;
import org.scache.common.shuffle.RoundState;
import org.scache.common.shuffle.ShufflePlacement;
import org.scache.common.testing.ManualClock;
import org.scache.worker.counters.WorkerCounters;
import org.scache.worker.spill.SpillPolicy;
import org.scache.worker.spill.SpillStore;

class BlockStoreSpillTest {
  private static final int BLOCK = 4096;
  private static final WorkerInfo HERE = new WorkerInfo("w", "localhost", 1);

  @TempDir
  Path dir;
  private MemoryPool pool;
  private WorkerStorage storage;
  private BlockStore store;
  private SpillStore disk;
  private final ManualClock clock = new ManualClock();
  private final WorkerCounters counters = new WorkerCounters();
  private final List<RoundState> roundEvents = new ArrayList<>();
  private final List<BlockId> lost = new ArrayList<>();

  private void open(int reserveBlocks, long diskCapacity) throws Exception {
    open(reserveBlocks, diskCapacity, SpillPolicy.contextAware());
  }

  private void open(int reserveBlocks, long diskCapacity, SpillPolicy policy) throws Exception {
    pool = new MemoryPool(dir.resolve("mem"), "test", (long) reserveBlocks * BLOCK, (long) reserveBlocks * BLOCK,
        false);
    disk = new SpillStore(List.of(dir.resolve("spill")), "w", diskCapacity, 64 * BLOCK);
    storage = new WorkerStorage(pool, Optional.of(disk), policy, new PlacementBook(), clock, counters, 16 * BLOCK,
        BlockQuota.unlimited());
    store = storage.store();
    storage.reportTo(new StoreEvents() {
      @Override
      public void blockStored(BlockSize block) {}

      @Override
      public synchronized void roundsChanged(List<RoundState> changes) {
        roundEvents.addAll(changes);
      }

      @Override
      public synchronized void blocksLost(List<BlockId> ids) {
        lost.addAll(ids);
      }
    });
  }

  @AfterEach
  void close() {
    if (store != null) {
      storage.close();
      pool.close();
    }
  }

  private static byte[] content(BlockId id, int size) {
    byte[] b = new byte[size];
    new Random(id.hashCode()).nextBytes(b);
    return b;
  }

  private void put(BlockId id, int size) {
    PendingPut p = storage.puts().begin(id, size);
    ByteBuf data = Unpooled.wrappedBuffer(content(id, size));
    p.write(data);
    data.release();
    storage.puts().commit(p);
    clock.advance(Duration.ofNanos(1000));
  }

  private byte[] read(BlockId id) {
    ByteBuf b = storage.reads().read(id).join().orElseThrow();
    try {
      byte[] out = new byte[b.readableBytes()];
      b.getBytes(b.readerIndex(), out);
      return out;
    } finally {
      b.release();
    }
  }

  /** Places shuffle {@code shuffle} of app "a": reduce r runs in round r / slots, submitted at {@code submitted}. */
  private void schedule(int shuffle, long submitted, int reduces, int slots) {
    List<ReduceAssignment> list = new ArrayList<>();
    for (int r = 0; r < reduces; r++) {
      list.add(new ReduceAssignment(r, HERE, r / slots));
    }
    store.scheduled(new ShufflePlacement("a", shuffle, "test", list), submitted, List.of());
  }

  private static BlockId id(int shuffle, int map, int reduce) {
    return new BlockId("a", shuffle, map, 0, reduce);
  }

  private List<BlockId> spilledInOrder(List<BlockId> candidates) {
    return candidates.stream().filter(store::isSpilled).toList();
  }

  @Test
  void eviction_takesIncompleteRoundsFirst_thenLaterShuffles_thenLargerRoundsAndIds() throws Exception {
    open(8, 0);
    // shuffle 0 submitted first, shuffle 1 later; 2 slots: reduces 0,1 are round 0, reduces 2,3 round 1
    schedule(0, 1_000, 4, 2);
    schedule(1, 2_000, 4, 2);
    List<BlockId> held = List.of(id(0, 0, 0), id(0, 0, 1), id(0, 0, 2), id(0, 0, 3), id(1, 0, 0), id(1, 0, 1),
        id(1, 0, 2), id(1, 0, 3));
    held.forEach(b -> put(b, BLOCK));
    // the master says round 0 of shuffle 0 is kept only in part elsewhere
    store.incompleteInCluster(new ShuffleKey("a", 0), List.of(0));
    List<BlockId> order = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      put(id(9, i, 0), BLOCK); // an unplaced shuffle's blocks come in and push the others out one by one
      for (BlockId b : held) {
        if (store.isSpilled(b) && !order.contains(b)) {
          order.add(b);
        }
      }
      if (order.size() == 2) {
        break;
      }
    }
    assertEquals(List.of(id(0, 0, 1), id(0, 0, 0)), order, "the incomplete round goes first, larger id first");
    // then the later-submitted shuffle, larger round and larger reduce id first
    List<BlockId> rest = new ArrayList<>();
    for (int i = 0; rest.size() < 6; i++) {
      put(id(8, i, 0), BLOCK);
      schedule(8, 500, 1, 1); // shuffle 8 is placed and submitted earliest: its blocks stay
      for (BlockId b : held) {
        if (store.isSpilled(b) && !order.contains(b) && !rest.contains(b)) {
          rest.add(b);
        }
      }
      if (i > 20) {
        break;
      }
    }
    assertEquals(List.of(id(1, 0, 3), id(1, 0, 2), id(1, 0, 1), id(1, 0, 0), id(0, 0, 3), id(0, 0, 2)), rest);
  }

  @Test
  void consumedBlocks_areSpilledFirst_andCopiesAreDroppedNotSpilled() throws Exception {
    open(4, 0);
    schedule(0, 1_000, 4, 1);
    put(id(0, 0, 0), BLOCK);
    put(id(0, 0, 3), BLOCK);
    ByteBuf copyBytes = Unpooled.wrappedBuffer(content(id(0, 1, 1), BLOCK));
    storage.copies().land(List.of(new BlockSize(id(0, 1, 1), BLOCK)), copyBytes);
    copyBytes.release();
    put(id(0, 0, 2), BLOCK);
    store.markConsumed(id(0, 0, 0));
    put(id(0, 2, 0), BLOCK);
    assertTrue(store.isSpilled(id(0, 0, 0)), "the block a reducer read leaves first");
    put(id(0, 2, 1), BLOCK);
    assertTrue(store.get(id(0, 1, 1)).isEmpty(), "the copy is dropped");
    assertEquals(1, counters.droppedCopies.sum());
    assertEquals(1, counters.spilledBlocks.sum());
    assertArrayEquals(content(id(0, 0, 0), BLOCK), read(id(0, 0, 0)), "a consumed block is kept for a retry");
  }

  @Test
  void reserveOfATenth_readsEveryBlockBackByteForByte_andMemoryStaysWithinTheReserve() throws Exception {
    open(10, 0);
    List<BlockId> all = new ArrayList<>();
    for (int m = 0; m < 100; m++) {
      BlockId b = id(0, m, m % 7);
      put(b, BLOCK - (m * 7) % 64);
      all.add(b);
      assertTrue(pool.usedBytes() <= pool.reservedBytes());
    }
    assertTrue(counters.spilledBlocks.sum() >= 90);
    for (BlockId b : all) {
      assertArrayEquals(content(b, (int) store.get(b).orElseThrow().size()), read(b));
    }
    assertTrue(storage.spillReadBufferBytes() == 0, "read buffers go back when released");
  }

  @Test
  void randomOperations_keepAccountingExact() throws Exception {
    open(32, 200L * BLOCK);
    Random rnd = new Random(42);
    Map<BlockId, Integer> live = new HashMap<>();
    for (int op = 0; op < 5000; op++) {
      int kind = rnd.nextInt(10);
      int shuffle = rnd.nextInt(4);
      if (kind < 5) {
        BlockId b = id(shuffle, rnd.nextInt(50), rnd.nextInt(6));
        int size = rnd.nextInt(3 * BLOCK);
        try {
          put(b, size);
          live.putIfAbsent(b, size);
        } catch (ScacheException e) {
          assertEquals(Status.RETRY_LATER, e.status(), e.getMessage());
        }
      } else if (kind < 7 && !live.isEmpty()) {
        BlockId b = new ArrayList<>(live.keySet()).get(rnd.nextInt(live.size()));
        assertArrayEquals(content(b, live.get(b)), read(b));
      } else if (kind == 7) {
        int reduce = rnd.nextInt(6);
        store.reduceCommitted(new ShuffleKey("a", shuffle), reduce);
        live.keySet().removeIf(b -> b.shuffleId() == shuffle && b.reduceId() == reduce);
      } else if (kind == 8 && rnd.nextInt(10) == 0) {
        store.removeShuffle(new ShuffleKey("a", shuffle));
        live.keySet().removeIf(b -> b.shuffleId() == shuffle);
      } else if (kind == 9) {
        storage.spiller().orElseThrow().reloadNow();
      }
      if (op % 250 == 0) {
        schedule(shuffle, 1000 + shuffle, 6, 2);
      }
      assertAccountingExact(live);
    }
    storage.spiller().orElseThrow().awaitBackground();
    assertAccountingExact(live);
    assertTrue(counters.spilledBlocks.sum() > 100, "the run spilled: " + counters.spilledBlocks.sum());
    assertTrue(counters.reloadedBlocks.sum() > 10, "the run reloaded: " + counters.reloadedBlocks.sum());
  }

  private void assertAccountingExact(Map<BlockId, Integer> live) throws Exception {
    storage.spiller().orElseThrow().awaitBackground();
    long memory = 0;
    long spilled = 0;
    long aligned = 0;
    for (Map.Entry<BlockId, Integer> e : live.entrySet()) {
      StoredBlock b = store.get(e.getKey()).orElseThrow(() -> new AssertionError(e.getKey() + " was lost"));
      assertEquals((long) e.getValue(), b.size());
      if (store.isSpilled(e.getKey())) {
        spilled += b.size();
      } else {
        memory += b.size();
        aligned += b.size() == 0 ? 0 : MemoryPool.align(b.size());
      }
    }
    assertEquals(live.size(), store.blockCount());
    assertEquals(memory, store.memoryBytes());
    assertEquals(spilled, store.spilledBytes());
    assertEquals(aligned, pool.usedBytes(), "every byte of the reserve belongs to exactly one block");
    assertTrue(pool.usedBytes() <= pool.reservedBytes());
    assertTrue(disk.bytesOnDisk() >= spilled);
  }

  @Test
  void corruptedSpillFile_isReportedAsAMissingBlock_neverServed() throws Exception {
    open(2, 0);
    put(id(0, 0, 0), BLOCK);
    put(id(0, 1, 0), BLOCK);
    put(id(0, 2, 0), BLOCK);
    BlockId victim = List.of(id(0, 0, 0), id(0, 1, 0), id(0, 2, 0)).stream().filter(store::isSpilled).findFirst()
        .orElseThrow();
    Path file;
    try (var files = Files.list(dir.resolve("spill"))) {
      file = files.findFirst().orElseThrow();
    }
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      f.seek(10);
      int was = f.read();
      f.seek(10);
      f.write(was ^ 0xff);
    }
    CompletionException e = assertThrows(CompletionException.class, () -> storage.reads().read(victim).join());
    assertEquals(Status.BLOCK_NOT_FOUND, ScacheException.from(e).status());
    assertEquals(List.of(victim), lost);
    assertFalse(store.get(victim).isPresent());
    assertEquals(1, counters.checksumFailures.sum());
    assertEquals(0, store.spilledBytes());
  }

  @Test
  void diskFull_answersRetryLater_andAfterSpaceFreesThePutSucceeds() throws Exception {
    open(2, 2L * BLOCK);
    put(id(0, 0, 0), BLOCK);
    put(id(0, 1, 0), BLOCK);
    put(id(1, 0, 0), BLOCK);
    put(id(1, 1, 0), BLOCK);
    ScacheException e = assertThrows(ScacheException.class, () -> put(id(2, 0, 0), BLOCK));
    assertEquals(Status.RETRY_LATER, e.status());
    assertEquals(4L * BLOCK, store.storedBytes(), "nothing was lost");
    store.removeShuffle(new ShuffleKey("a", 0));
    put(id(2, 0, 0), BLOCK);
    assertArrayEquals(content(id(2, 0, 0), BLOCK), read(id(2, 0, 0)));
  }

  @Test
  void freedMemory_reloadsSpilledBlocks_highestPriorityFirst() throws Exception {
    open(4, 0);
    schedule(0, 1_000, 8, 2);
    for (int r = 0; r < 8; r++) {
      put(id(0, 0, r), BLOCK);
    }
    assertEquals(4, store.spilledBlockCount());
    // reduces 0 and 1 (round 0) committed: two blocks of room, for the two spilled blocks of the earliest round
    store.reduceCommitted(new ShuffleKey("a", 0), 0);
    store.reduceCommitted(new ShuffleKey("a", 0), 1);
    storage.spiller().orElseThrow().awaitBackground();
    List<BlockId> inMemory = new ArrayList<>();
    for (int r = 2; r < 8; r++) {
      if (!store.isSpilled(id(0, 0, r))) {
        inMemory.add(id(0, 0, r));
      }
    }
    assertEquals(List.of(id(0, 0, 2), id(0, 0, 3), id(0, 0, 4), id(0, 0, 5)), inMemory);
    assertEquals(2, counters.reloadedBlocks.sum());
  }

  @Test
  void spillingFromARound_isReportedIncomplete_andReloadingItWholeReportsItComplete() throws Exception {
    open(2, 0);
    schedule(0, 1_000, 2, 1);
    put(id(0, 0, 0), BLOCK);
    put(id(0, 0, 1), BLOCK);
    put(id(0, 1, 0), BLOCK);
    assertEquals(List.of(new RoundState("a", 0, 1, true)), roundEvents);
    store.removeShuffle(new ShuffleKey("a", 0));
    assertEquals(new RoundState("a", 0, 1, false), roundEvents.get(roundEvents.size() - 1));
  }

  @Test
  void removingTheApplication_deletesItsSpillFiles() throws Exception {
    open(2, 0);
    for (int m = 0; m < 10; m++) {
      put(id(0, m, 0), BLOCK);
    }
    assertTrue(storage.spillFileCount() > 0);
    store.removeApplication("a");
    assertEquals(0, storage.spillFileCount());
    try (var files = Files.list(dir.resolve("spill"))) {
      assertEquals(0, files.count());
    }
    assertEquals(0, pool.usedBytes());
  }

  @Test
  void aFewLiveBlocksInASpillFile_areMovedOut_soItsDeadSpaceIsReusable() throws Exception {
    // reserve of one block, files of 16 blocks, 32 blocks of disk
    pool = new MemoryPool(dir.resolve("mem"), "test", BLOCK, BLOCK, false);
    disk = new SpillStore(List.of(dir.resolve("spill")), "w", 32L * BLOCK, 16L * BLOCK);
    storage = new WorkerStorage(pool, Optional.of(disk), SpillPolicy.contextAware(), new PlacementBook(), clock,
        counters,
        16 * BLOCK, BlockQuota.unlimited());
    store = storage.store();
    BlockId keeper = new BlockId("b", 0, 0, 0, 0);
    int first = fillUntilFull(m -> m == 5 ? keeper : id(0, m, 0));
    assertTrue(first >= 32, "the disk took " + first + " blocks");
    assertTrue(store.isSpilled(keeper));
    // read once: it is not loaded back into memory, so it stays in its nearly empty file until moved
    store.markConsumed(keeper);
    store.removeShuffle(new ShuffleKey("a", 0));
    storage.spiller().orElseThrow().awaitBackground();
    assertEquals(0, storage.spillFileDeadBytes(), "no dead space is kept: " + disk.fileCount() + " spill files");
    assertTrue(storage.spillFileBytes() <= BLOCK, "only the live block is on disk: " + storage.spillFileBytes());
    assertTrue(counters.spillCompactedBlocks.sum() >= 1);
    assertArrayEquals(content(keeper, BLOCK), read(keeper));
    int second = fillUntilFull(m -> id(1, m, 0));
    assertTrue(second >= first - 2, "after compaction the disk took " + second + " blocks again, first " + first);
    assertArrayEquals(content(keeper, BLOCK), read(keeper));
    assertArrayEquals(content(id(1, 0, 0), BLOCK), read(id(1, 0, 0)));
  }

  @Test
  void aLiveBlockInTheFileBeingAppendedTo_doesNotKeepItsDeadSpace_whenTheCapacityIsBelowTheFileSize()
      throws Exception {
    // reserve of one block, 32 blocks of disk, files of 256 blocks: sized down to a quarter of the disk
    pool = new MemoryPool(dir.resolve("mem"), "test", BLOCK, BLOCK, false);
    disk = new SpillStore(List.of(dir.resolve("spill")), "w", 32L * BLOCK, 256L * BLOCK);
    storage = new WorkerStorage(pool, Optional.of(disk), SpillPolicy.contextAware(), new PlacementBook(), clock,
        counters, 16 * BLOCK, BlockQuota.unlimited());
    store = storage.store();
    BlockId keeper = new BlockId("b", 0, 0, 0, 0);
    int first = fillUntilFull(m -> m == 29 ? keeper : id(0, m, 0));
    assertTrue(store.isSpilled(keeper));
    store.markConsumed(keeper);

    store.removeShuffle(new ShuffleKey("a", 0));
    storage.spiller().orElseThrow().awaitBackground();

    assertEquals(0, storage.spillFileDeadBytes(), "no dead space is kept: " + disk.fileCount() + " spill files");
    assertEquals(BLOCK, storage.spillFileBytes(), "only the live block is on disk");
    int second = fillUntilFull(m -> id(1, m, 0));
    assertTrue(second >= first - 1, "after compaction the disk took " + second + " blocks again, first " + first);
    assertArrayEquals(content(keeper, BLOCK), read(keeper));
  }

  /** Puts blocks {@code ids(0), ids(1), ...} until the store answers RETRY_LATER; returns how many it took. */
  private int fillUntilFull(java.util.function.IntFunction<BlockId> ids) {
    for (int m = 0; m < 1000; m++) {
      try {
        put(ids.apply(m), BLOCK);
      } catch (ScacheException e) {
        assertEquals(Status.RETRY_LATER, e.status(), e.getMessage());
        return m;
      }
    }
    throw new AssertionError("the disk never filled");
  }

  @Test
  void lruPolicy_spillsTheLeastRecentlyReadBlock() throws Exception {
    open(2, 0, SpillPolicy.lru());
    put(id(0, 0, 0), BLOCK);
    put(id(0, 1, 0), BLOCK);
    read(id(0, 0, 0));
    put(id(0, 2, 0), BLOCK);
    assertTrue(store.isSpilled(id(0, 1, 0)));
    assertFalse(store.isSpilled(id(0, 0, 0)));
  }
}
