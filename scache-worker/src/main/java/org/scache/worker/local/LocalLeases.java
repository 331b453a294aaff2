package org.scache.worker.local;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import org.scache.common.BlockId;
import org.scache.common.ScacheException;
import org.scache.common.protocol.Status;
import org.scache.common.shuffle.BlockSize;
import org.scache.worker.cluster.BlockBatch;
import org.scache.worker.counters.WorkerCounters;
import org.scache.worker.store.BlockBuffer;
import org.scache.worker.store.BlockPuts;
import org.scache.worker.store.BlockStore;
import org.scache.worker.store.MemoryPool;
import org.scache.worker.store.PendingPut;
import org.scache.worker.store.PinnedBytes;

/**
 * What one connection from a local client holds of a worker's shared memory: leased ranges that
 * the client copies blocks into and commits as blocks, and pinned blocks it copies out. Memory
 * accounting stays exact: committed parts belong to their blocks, the rest of a lease goes back to
 * the pool on release or {@link #close()}. Not thread-safe; used from the connection's event loop.
 */
public final class LocalLeases {
  private static final AtomicLong IDS = new AtomicLong();

  private final MemoryPool pool;
  private final BlockStore store;
  private final BlockPuts puts;
  private final WorkerCounters counters;
  private final String workerId;
  private final LeaseQuota quota;
  private final org.scache.common.Clock clock;
  private final Map<Long, Lease> leases = new HashMap<>();
  private final Map<Long, Pin> pins = new HashMap<>();
  private boolean opened;
  private boolean closed;

  /** Blocks committed here are committed through {@code puts}, as puts over a socket are. */
  public LocalLeases(MemoryPool pool, BlockStore store, BlockPuts puts, WorkerCounters counters, String workerId) {
    this(pool, store, puts, counters, workerId, LeaseQuota.unlimited(), org.scache.common.Clock.SYSTEM);
  }

  /**
   * ... with leases counted against {@code quota}, which the worker's connections share, and timed
   * by {@code clock} ({@link #expireIdle}).
   */
  public LocalLeases(MemoryPool pool, BlockStore store, BlockPuts puts, WorkerCounters counters, String workerId,
      LeaseQuota quota, org.scache.common.Clock clock) {
    this.pool = pool;
    this.store = store;
    this.puts = puts;
    this.counters = counters;
    this.workerId = workerId;
    this.quota = quota;
    this.clock = clock;
  }

  public boolean isClosed() {
    return closed;
  }

  /** The application that took lease {@code leaseId}. */
  public String applicationOfLease(long leaseId) {
    return leaseOf(leaseId).appId;
  }

  /** The applications of these pins, which must all exist. */
  public Set<String> applicationsOfPins(List<Long> pinIds) {
    Set<String> apps = new LinkedHashSet<>();
    for (long id : pinIds) {
      Pin p = pins.get(id);
      if (p == null) {
        throw new ScacheException(Status.INVALID_ARGUMENT, "no pin " + id + " on this connection");
      }
      apps.add(p.appId);
    }
    return apps;
  }

  /** Lets go of the pins that still exist among {@code pinIds}. */
  public void unpin(List<Long> pinIds) {
    for (long id : pinIds) {
      Pin p = pins.remove(id);
      if (p != null) {
        p.reference.release();
      }
    }
  }

  /** Gives back every lease's uncommitted memory and every pin; later requests are refused. */
  public void close() {
    closed = true;
    leases.values().forEach(this::freeUncommitted);
    leases.clear();
    pins.values().forEach(p -> p.reference.release());
    pins.clear();
  }

  /** Bytes this connection holds in leases and not yet committed. */
  long leasedBytes() {
    long total = 0;
    for (Lease l : leases.values()) {
      total += l.uncommittedBytes();
    }
    return total;
  }

  int pinCount() {
    return pins.size();
  }

  // ---------------------------------------------------------------- requests

  /** Opens this connection's access to the shared memory: the segment files the client maps. */
  public List<MemoryPool.SegmentFile> open() {
    if (!pool.isShared()) {
      throw new ScacheException(Status.INVALID_ARGUMENT, "worker " + workerId
          + " does not share its memory with local clients (scache.worker.local.shm.enabled is false)");
    }
    if (!opened) {
      opened = true;
      counters.localOpens.increment();
    }
    return pool.sharedFiles();
  }

  /** Leases {@code bytes} of the reserve to {@code appId}'s client, to copy blocks into. */
  public LeasedRange lease(String appId, long bytes) {
    requireOpened();
    if (bytes <= 0) {
      throw new ScacheException(Status.INVALID_ARGUMENT, "a lease must have a positive size: " + bytes);
    }
    if (!pool.canEverHold(bytes)) {
      throw new ScacheException(Status.BLOCK_TOO_LARGE, "a lease of " + bytes
          + " bytes is larger than one memory segment of this worker");
    }
    if (leases.size() >= quota.maxPerConnection()) {
      counters.limitRefusals.increment();
      throw new ScacheException(Status.LIMIT_EXCEEDED, "this connection holds " + leases.size() + " leases, its "
          + "limit (scache.worker.local.leases.per.connection.max)");
    }
    long counted = MemoryPool.align(bytes);
    try {
      quota.take(appId, counted);
    } catch (ScacheException e) {
      counters.limitRefusals.increment();
      throw e;
    }
    MemoryPool.Region r = pool.allocate(bytes).orElse(null);
    if (r == null) {
      quota.giveBack(appId, counted);
      throw new ScacheException(Status.STORE_FULL, "no room for a lease of " + bytes + " bytes: "
          + pool.usedBytes() + " of " + pool.reservedBytes() + " reserved bytes in use");
    }
    long id = IDS.incrementAndGet();
    Lease lease = new Lease(appId, r.segment(), r.offset(), r.offset() + r.allocated());
    lease.counted = counted;
    lease.usedNanos = clock.nanos();
    leases.put(id, lease);
    return new LeasedRange(id, r.segment(), r.offset(), r.allocated());
  }

  /**
   * Makes {@code [offset, offset + length)} of lease {@code leaseId} (offsets within its segment) the
   * bytes of block {@code id}, committed as puts over a socket are.
   */
  public void commit(BlockId id, long leaseId, long offset, long length) {
    Lease lease = leaseOf(leaseId);
    if (!lease.appId.equals(id.appId())) {
      throw new ScacheException(Status.AUTH_FAILED, "lease " + leaseId + " belongs to " + lease.appId
          + ", not to " + id.appId());
    }
    PendingPut put;
    if (length == 0) {
      put = new PendingPut(id, Unpooled.EMPTY_BUFFER);
    } else {
      lease.claim(leaseId, offset, length);
      lease.usedNanos = clock.nanos();
      long used = Math.min(lease.counted, MemoryPool.align(length));
      lease.counted -= used;
      quota.giveBack(lease.appId, used);
      BlockBuffer data = new BlockBuffer(pool, pool.adopt(lease.segment, offset, length));
      data.writerIndex(data.capacity());
      put = new PendingPut(id, data);
    }
    if (puts.commit(put)) {
      counters.localCommits.increment();
    }
  }

  /** Ends a lease: what was not committed goes back to the reserve. */
  public void release(long leaseId) {
    Lease lease = leases.remove(leaseId);
    if (lease == null) {
      throw unknownLease(leaseId);
    }
    freeUncommitted(lease);
  }

  /** Pins a block held in this worker's shared memory for this connection's client to copy out. */
  public PinnedRange pin(BlockId id) {
    requireOpened();
    return pinHeld(id, true).orElseThrow(() -> new ScacheException(Status.BLOCK_NOT_FOUND,
        "block " + id + " is not in the shared memory of worker " + workerId
            + (store.isSpilled(id) ? " (it is spilled to disk: read it with GET_BLOCK)" : "")));
  }

  /**
   * A reduce's input read for this connection's client: each block of {@code batch} this worker holds
   * in shared memory pinned, the bytes of the others (spilled, or fetched for this read) kept as the
   * answer's payload. Takes the batch's payload; the caller sends, or releases, the answer's.
   */
  public PinnedInput pinReduceInput(int numMaps, int finishedMaps, BlockBatch batch) {
    ByteBuf all = batch.payload();
    CompositeByteBuf rest = Unpooled.compositeBuffer(Math.max(2, batch.sizes().size()));
    List<Long> taken = new ArrayList<>();
    try {
      requireOpened();
      List<PinnedInput.Part> parts = new ArrayList<>(batch.sizes().size());
      int offset = all.readerIndex();
      for (BlockSize b : batch.sizes()) {
        Optional<PinnedRange> pin = pinHeld(b.blockId(), false); // the reader counted the read
        pin.ifPresent(p -> taken.add(p.pinId()));
        if (pin.isEmpty()) {
          rest.addComponent(true, all.retainedSlice(offset, (int) b.size()));
        }
        parts.add(new PinnedInput.Part(b.blockId(), b.size(), pin));
        offset += (int) b.size();
      }
      return new PinnedInput(numMaps, finishedMaps, parts, rest);
    } catch (RuntimeException e) {
      unpin(taken);
      rest.release();
      throw e;
    } finally {
      all.release();
    }
  }

  /**
   * Pins block {@code id} for this connection if this worker holds it in shared memory, counting it
   * as a local read when {@code countRead}.
   */
  private Optional<PinnedRange> pinHeld(BlockId id, boolean countRead) {
    Optional<PinnedBytes> held = store.pin(id);
    if (held.isEmpty()) {
      return Optional.empty();
    }
    PinnedBytes p = held.get();
    store.markConsumed(id);
    long pinId = IDS.incrementAndGet();
    pins.put(pinId, new Pin(id.appId(), p.reference()));
    counters.localPins.increment();
    if (countRead) {
      counters.localReadBlocks.increment();
      counters.localReadBytes.add(p.length());
    }
    return Optional.of(new PinnedRange(pinId, p.segment(), p.offset(), p.length()));
  }

  /** Refuses a request that needs the shared memory when this connection has not opened it. */
  public void requireOpened() {
    if (!opened) {
      throw new ScacheException(Status.INVALID_ARGUMENT, "OPEN_LOCAL must come first on this connection");
    }
  }

  private Lease leaseOf(long leaseId) {
    Lease lease = leases.get(leaseId);
    if (lease == null) {
      throw unknownLease(leaseId);
    }
    return lease;
  }

  private static ScacheException unknownLease(long leaseId) {
    return new ScacheException(Status.INVALID_ARGUMENT, "no lease " + leaseId + " on this connection");
  }

  /**
   * Takes back every lease on which nothing was committed for {@code timeoutNanos}: its uncommitted
   * memory goes back to the reserve and a later commit on it is refused. A client gives an unused
   * lease back within a fraction of a second, so only one that stopped talking loses it. Returns
   * the number taken back.
   */
  public int expireIdle(long timeoutNanos) {
    long now = clock.nanos();
    int expired = 0;
    for (var it = leases.entrySet().iterator(); it.hasNext(); ) {
      Lease lease = it.next().getValue();
      if (now - lease.usedNanos >= timeoutNanos) {
        freeUncommitted(lease);
        it.remove();
        expired++;
      }
    }
    if (expired > 0) {
      counters.leasesExpired.add(expired);
    }
    return expired;
  }

  int leaseCount() {
    return leases.size();
  }

  /** Committed ranges the open leases keep, adjacent ones counted as one. */
  long committedRanges() {
    long ranges = 0;
    for (Lease l : leases.values()) {
      ranges += l.committed.size();
    }
    return ranges;
  }

  private void freeUncommitted(Lease lease) {
    quota.giveBack(lease.appId, lease.counted);
    lease.counted = 0;
    long at = lease.start;
    for (Map.Entry<Long, Long> c : lease.committed.entrySet()) {
      pool.freeRange(lease.segment, at, c.getKey() - at);
      at = c.getKey() + c.getValue();
    }
    pool.freeRange(lease.segment, at, lease.end - at);
    lease.committed.clear();
    lease.committed.put(lease.start, lease.end - lease.start);
  }

  /**
   * A leased range {@code [start, end)} of one segment and the aligned parts of it already
   * committed as blocks (which the blocks now own); the rest is the lease's to give back.
   */
  private static final class Lease {
    final String appId;
    final int segment;
    final long start;
    final long end;
    final TreeMap<Long, Long> committed = new TreeMap<>();
    /** Bytes of this lease still counted against its application's {@link LeaseQuota}. */
    long counted;
    /** When the lease was taken or last committed from. */
    long usedNanos;

    Lease(String appId, int segment, long start, long end) {
      this.appId = appId;
      this.segment = segment;
      this.start = start;
      this.end = end;
    }

    /** Marks {@code [offset, offset + length)} committed, or explains why it cannot be. */
    void claim(long leaseId, long offset, long length) {
      long aligned = MemoryPool.align(length);
      if (offset % MemoryPool.ALIGNMENT != 0 || offset < start || offset > end || aligned > end - offset) {
        throw new ScacheException(Status.INVALID_ARGUMENT, "[" + offset + ", +" + length + ") is not an aligned "
            + "range inside lease " + leaseId + " [" + start + ", " + end + ")");
      }
      Map.Entry<Long, Long> before = committed.floorEntry(offset);
      Map.Entry<Long, Long> after = committed.ceilingEntry(offset);
      if ((before != null && before.getKey() + before.getValue() > offset)
          || (after != null && after.getKey() < offset + aligned)) {
        throw new ScacheException(Status.INVALID_ARGUMENT, "[" + offset + ", +" + length + ") overlaps a range "
            + "already committed from lease " + leaseId);
      }
      // a client fills its lease from the start on: ranges that touch are kept as one, so a lease of small blocks
      // keeps a few entries, not one a block
      long from = offset;
      long to = offset + aligned;
      if (before != null && before.getKey() + before.getValue() == offset) {
        from = before.getKey();
      }
      if (after != null && after.getKey() == to) {
        to += after.getValue();
        committed.remove(after.getKey());
      }
      committed.put(from, to - from);
    }

    long uncommittedBytes() {
      long c = 0;
      for (long len : committed.values()) {
        c += len;
      }
      return end - start - c;
    }
  }

  /** A pinned block: the reference that keeps its memory, and its application. */
  private record Pin(String appId, ByteBuf reference) {}
}
