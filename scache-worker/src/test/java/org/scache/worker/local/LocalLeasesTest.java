package org.scache.worker.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.scache.common.BlockId;
import org.scache.common.ScacheException;
import org.scache.common.ShuffleKey;
import org.scache.common.protocol.Status;
import org.scache.common.shuffle.BlockSize;
import org.scache.common.shuffle.RoundState;
import org.scache.worker.counters.WorkerCounters;
import org.scache.worker.spill.SpillPolicy;
import org.scache.worker.store.BlockQuota;
import org.scache.worker.store.BlockStore;
import org.scache.worker.store.MemoryPool;
import org.scache.worker.store.PlacementBook;
import org.scache.worker.store.StoreEvents;
import org.scache.worker.store.WorkerStorage;

class LocalLeasesTest {
  private static final long RESERVE = 4 << 20;
  @TempDir
  Path dir;
  private MemoryPool pool;
  private WorkerStorage storage;
  private BlockStore store;
  private WorkerCounters counters;
  private List<BlockSize> reported;
  private LocalLeases leases;

  @BeforeEach
  void open() throws Exception {
    pool = new MemoryPool(dir, "test", RESERVE, 1 << 20, false, true);
    counters = new WorkerCounters();
    reported = new ArrayList<>();
    storage = new WorkerStorage(pool, Optional.empty(), SpillPolicy.contextAware(), new PlacementBook(),
        org.scache.common.Clock.SYSTEM, counters, 64 << 20, BlockQuota.unlimited());
    storage.reportTo(new StoreEvents() {
      @Override
      public void blockStored(BlockSize block) {
        reported.add(block);
      }

      @Override
      public void roundsChanged(List<RoundState> changes) {}

      @Override
      public void blocksLost(List<BlockId> lost) {}
    });
    store = storage.store();
    leases = newConnection();
    leases.open();
  }

  @AfterEach
  void close() {
    leases.close();
    storage.close();
    pool.close();
  }

  private LocalLeases newConnection() {
    return new LocalLeases(pool, store, storage.puts(), counters, "worker-test");
  }

  private static BlockId block(int map) {
    return new BlockId("a", 0, map, 0, 0);
  }

  @Test
  void sharedPool_keepsOwnerOnlyFiles_andDeletesThemOnClose() throws Exception {
    List<MemoryPool.SegmentFile> files = pool.sharedFiles();
    assertEquals(4, files.size());
    for (MemoryPool.SegmentFile f : files) {
      assertTrue(Files.exists(f.path()));
      assertEquals(EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE),
          Files.getPosixFilePermissions(f.path()));
    }
    List<MemoryPool.SegmentFile> listed = leases.open();
    assertEquals(files.get(1).path(), listed.get(1).path());
    pool.close();
    for (MemoryPool.SegmentFile f : files) {
      assertTrue(Files.notExists(f.path()));
    }
  }

  @Test
  void unsharedPool_unlinksItsFiles_andRefusesOpen() throws Exception {
    try (MemoryPool unshared = new MemoryPool(dir.resolve("u"), "test", 1 << 20, 1 << 20, false, false)) {
      assertTrue(unshared.sharedFiles().isEmpty());
      try (var listing = Files.list(dir.resolve("u"))) {
        assertEquals(0, listing.count());
      }
      WorkerStorage u = WorkerStorage.inMemory(unshared);
      LocalLeases l = new LocalLeases(unshared, u.store(), u.puts(), counters, "w");
      assertStatus(Status.INVALID_ARGUMENT, l::open);
    }
  }

  @Test
  void leasesWithoutACommitForTheTimeout_areTakenBack_andCommitsOnThemRefused() throws Exception {
    org.scache.common.testing.ManualClock clock = new org.scache.common.testing.ManualClock();
    LeaseQuota quota = LeaseQuota.unlimited();
    LocalLeases timed = new LocalLeases(pool, store, storage.puts(), counters, "worker-test", quota, clock);
    timed.open();
    LeasedRange idle = timed.lease("a", 1 << 16);
    LeasedRange busy = timed.lease("a", 1 << 16);
    long usedBefore = pool.usedBytes();
    clock.advance(java.time.Duration.ofSeconds(40));
    timed.commit(block(1), busy.leaseId(), busy.offset(), 100);
    clock.advance(java.time.Duration.ofSeconds(30));
    assertEquals(1, timed.expireIdle(java.time.Duration.ofSeconds(60).toNanos()), "only the idle lease");
    assertEquals(1, timed.leaseCount());
    assertEquals(usedBefore - (1 << 16), pool.usedBytes(), "the idle lease's memory went back");
    assertEquals((1 << 16) - 128, quota.leasedBy("a"), "the quota counts the rest of the busy lease only");
    assertStatus(Status.INVALID_ARGUMENT, () -> timed.commit(block(2), idle.leaseId(),
        idle.offset(), 100));
    timed.close();
  }

  @Test
  void blocksCommittedOneAfterAnother_keepOneRangeInTheirLease_andTheRestStillGoesBack() {
    LeasedRange lease = leases.lease("a", 1 << 16);
    for (int i = 0; i < 100; i++) {
      leases.commit(block(i), lease.leaseId(), lease.offset() + 64L * i, 10);
    }
    assertEquals(1, leases.committedRanges(), "a hundred adjacent blocks, one range");
    leases.commit(block(100), lease.leaseId(), lease.offset() + 64L * 101, 10);
    assertEquals(2, leases.committedRanges(), "a block after a gap starts another");
    leases.commit(block(101), lease.leaseId(), lease.offset() + 64L * 100, 64);
    assertEquals(1, leases.committedRanges(), "the block filling the gap joins both");
    leases.release(lease.leaseId());
    assertEquals(64L * 102, pool.usedBytes(), "the blocks keep their ranges, the rest of the lease went back");
    store.removeApplication("a");
    assertEquals(0, pool.usedBytes());
  }

  @Test
  void commit_adoptsTheCopiedBytes_asAnOrdinaryBlock() throws Exception {
    LeasedRange lease = leases.lease("a", 1 << 16);
    Path file = pool.sharedFiles().get(lease.segment()).path();
    byte[] data = new byte[1000];
    new Random(1).nextBytes(data);
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ch.map(FileChannel.MapMode.READ_WRITE, 0, ch.size()).put((int) lease.offset() + 128, data);
    }
    leases.commit(block(0), lease.leaseId(), lease.offset() + 128, data.length);
    ByteBuf b = storage.reads().read(block(0)).join().orElseThrow();
    byte[] back = new byte[b.readableBytes()];
    b.readBytes(back);
    b.release();
    assertEquals(ByteBuffer.wrap(data), ByteBuffer.wrap(back));
    assertEquals(List.of(new BlockSize(block(0), 1000)), reported);
    assertEquals(1, counters.localCommits.sum());
    assertEquals(1 << 16, pool.usedBytes(), "the lease holds its range, partly as the block");
    leases.release(lease.leaseId());
    assertEquals(MemoryPool.align(1000), pool.usedBytes());
    store.removeApplication("a");
    assertEquals(0, pool.usedBytes());
  }

  @Test
  void commit_outsideTheLease_overlapping_unaligned_orUnknown_isInvalid_andChangesNothing() {
    LeasedRange lease = leases.lease("a", 4096);
    long at = lease.offset();
    leases.commit(block(0), lease.leaseId(), at + 1024, 100);
    long used = pool.usedBytes();
    assertStatus(Status.INVALID_ARGUMENT, () -> leases.commit(block(1), lease.leaseId(),
        at + 1024 + 64, 10));
    assertStatus(Status.INVALID_ARGUMENT, () -> leases.commit(block(1), lease.leaseId(),
        at + 1000, 10));
    assertStatus(Status.INVALID_ARGUMENT, () -> leases.commit(block(1), lease.leaseId(),
        at + 4096 - 64, 65));
    assertStatus(Status.INVALID_ARGUMENT, () -> leases.commit(block(1), lease.leaseId(),
        at - 64, 10));
    assertStatus(Status.INVALID_ARGUMENT, () -> leases.commit(block(1), lease.leaseId(),
        Long.MAX_VALUE - 63, 10));
    assertStatus(Status.INVALID_ARGUMENT, () -> leases.commit(block(1), 999_999, at, 10));
    assertStatus(Status.AUTH_FAILED, () -> leases.commit(new BlockId("b", 0, 0, 0, 0),
        lease.leaseId(), at, 10));
    assertStatus(Status.INVALID_ARGUMENT, () -> leases.release(999_999));
    assertEquals(used, pool.usedBytes());
    assertEquals(1, storage.blockCount());
    // an earlier, non-overlapping range is still fine: commits need not arrive in order
    leases.commit(block(1), lease.leaseId(), at, 10);
    assertEquals(2, storage.blockCount());
  }

  @Test
  void duplicateCommit_isAcknowledged_andItsRangeGoesBack() {
    LeasedRange lease = leases.lease("a", 4096);
    leases.commit(block(0), lease.leaseId(), lease.offset(), 100);
    leases.commit(block(0), lease.leaseId(), lease.offset() + 128, 100);
    assertEquals(1, counters.duplicatePuts.sum());
    leases.release(lease.leaseId());
    assertEquals(MemoryPool.align(100), pool.usedBytes());
  }

  @Test
  void requestsBeforeOpen_areInvalid() {
    LocalLeases fresh = newConnection();
    assertStatus(Status.INVALID_ARGUMENT, () -> fresh.lease("a", 4096));
    assertStatus(Status.INVALID_ARGUMENT, () -> fresh.pin(block(0)));
    fresh.close();
  }

  @Test
  void leaseLargerThanASegment_isTooLarge_andBeyondTheFreeMemory_isStoreFull() {
    assertStatus(Status.BLOCK_TOO_LARGE, () -> leases.lease("a", 2 << 20));
    for (int i = 0; i < 4; i++) {
      leases.lease("a", 1 << 20);
    }
    assertStatus(Status.STORE_FULL, () -> leases.lease("a", 64));
    leases.close();
    assertEquals(0, pool.usedBytes());
  }

  @Test
  void pin_keepsARemovedBlocksMemory_untilUnpinned() {
    LeasedRange lease = leases.lease("a", 4096);
    leases.commit(block(0), lease.leaseId(), lease.offset(), 1000);
    leases.release(lease.leaseId());
    PinnedRange pin = leases.pin(block(0));
    assertEquals(lease.offset(), pin.offset());
    assertEquals(1000, pin.length());
    store.removeApplication("a");
    assertEquals(MemoryPool.align(1000), pool.usedBytes());
    assertStatus(Status.BLOCK_NOT_FOUND, () -> leases.pin(block(0)));
    assertStatus(Status.INVALID_ARGUMENT, () -> leases.applicationsOfPins(List.of(pin.pinId(), 12345L)));
    leases.unpin(List.of(pin.pinId()));
    assertEquals(0, pool.usedBytes());
    assertEquals(0, leases.pinCount());
  }

  @Test
  void closingTheConnection_givesBackLeasesAndPins_butNotCommittedBlocks() {
    LocalLeases other = newConnection();
    other.open();
    LeasedRange lease = other.lease("a", 1 << 16);
    other.commit(block(0), lease.leaseId(), lease.offset() + 4096, 5000);
    other.pin(block(0));
    store.removeApplication("a");
    other.close();
    assertEquals(0, pool.usedBytes());
    assertTrue(other.isClosed());
  }

  @Test
  void manyRandomOperations_keepTheMemoryAccountingExact() {
    Random random = new Random(7);
    List<LocalLeases> connections = new ArrayList<>(List.of(leases));
    Map<Long, LocalLeases> leaseOwner = new HashMap<>();
    Map<Long, long[]> leaseRange = new HashMap<>();
    Map<Long, Long> leaseNext = new HashMap<>();
    Map<Long, LocalLeases> pinOwner = new HashMap<>();
    int nextMap = 0;
    for (int step = 0; step < 20_000; step++) {
      int op = random.nextInt(100);
      try {
        if (op < 3) {
          LocalLeases c = newConnection();
          c.open();
          connections.add(c);
        } else if (op < 5 && connections.size() > 1) {
          LocalLeases c = connections.remove(1 + random.nextInt(connections.size() - 1));
          c.close();
          leaseOwner.values().removeIf(o -> o == c);
          pinOwner.values().removeIf(o -> o == c);
        } else if (op < 20) {
          LocalLeases c = connections.get(random.nextInt(connections.size()));
          LeasedRange l = c.lease("a", 64 + random.nextInt(64 << 10));
          leaseOwner.put(l.leaseId(), c);
          leaseRange.put(l.leaseId(), new long[] {l.offset(), l.offset() + l.length()});
          leaseNext.put(l.leaseId(), l.offset());
        } else if (op < 55 && !leaseOwner.isEmpty()) {
          long id = pick(random, leaseOwner.keySet());
          long[] range = leaseRange.get(id);
          long at = leaseNext.get(id) + 64L * random.nextInt(3);
          long length = random.nextInt(8000);
          int map = random.nextInt(10) == 0 && nextMap > 0 ? random.nextInt(nextMap) : nextMap++;
          if (at + MemoryPool.align(length) <= range[1]) {
            leaseOwner.get(id).commit(block(map), id, at, length);
            leaseNext.put(id, at + (length == 0 ? 0 : MemoryPool.align(length)));
          }
        } else if (op < 62 && !leaseOwner.isEmpty()) {
          long id = pick(random, leaseOwner.keySet());
          leaseOwner.remove(id).release(id);
        } else if (op < 80 && nextMap > 0) {
          LocalLeases c = connections.get(random.nextInt(connections.size()));
          PinnedRange p = c.pin(block(random.nextInt(nextMap)));
          pinOwner.put(p.pinId(), c);
        } else if (op < 92 && !pinOwner.isEmpty()) {
          long id = pick(random, pinOwner.keySet());
          pinOwner.remove(id).unpin(List.of(id));
        } else if (op < 95 && nextMap > 0) {
          int map = random.nextInt(nextMap);
          store.mapFinished(new ShuffleKey("a", 0), map, 1);
        }
      } catch (ScacheException e) {
        assertTrue(e.status() == Status.STORE_FULL || e.status() == Status.BLOCK_NOT_FOUND, e.toString());
      }
      if (pinOwner.isEmpty()) {
        long held = 0;
        for (LocalLeases c : connections) {
          held += c.leasedBytes();
        }
        for (BlockSize b : storage.inventory()) {
          held += b.size() == 0 ? 0 : MemoryPool.align(b.size());
        }
        assertEquals(held, pool.usedBytes(), "step " + step);
      }
    }
    connections.forEach(LocalLeases::close);
    store.removeApplication("a");
    assertEquals(0, pool.usedBytes());
    assertTrue(counters.localCommits.sum() > 1000, "the run committed blocks: " + counters.localCommits.sum());
  }

  private static long pick(Random random, java.util.Set<Long> ids) {
    int n = random.nextInt(ids.size());
    for (long id : ids) {
      if (n-- == 0) {
        return id;
      }
    }
    throw new IllegalStateException();
  }

  private static void assertStatus(Status status, org.junit.jupiter.api.function.Executable call) {
    ScacheException e = assertThrows(ScacheException.class, call);
    assertEquals(status, e.status(), e.getMessage());
  }
}
