package org.scache.worker;

import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.scache.common.BlockId;
import org.scache.common.ScacheException;
import org.scache.common.ShuffleKey;
import org.scache.common.protocol.Message.BlockSize;
import org.scache.common.protocol.Status;

/**
 * The blocks a worker holds, in its reserved {@link MemoryPool}. Blocks are immutable: a second put
 * of the same id (same map attempt) is accepted and ignored. When a map's final attempt is declared,
 * the blocks of its other attempts are dropped. A put that does not fit is refused with
 * {@link Status#STORE_FULL}; nothing is ever evicted here.
 */
public final class BlockStore implements AutoCloseable {
  private final MemoryPool pool;
  private final Map<BlockId, StoredBlock> blocks = new HashMap<>();
  private final Map<ShuffleKey, Set<BlockId>> byShuffle = new HashMap<>();
  private final AtomicLong storedBytes = new AtomicLong();
  /** Blocks held here as prefetched copies of blocks another worker holds; never reported to the master. */
  private final Set<BlockId> copies = new HashSet<>();

  BlockStore(MemoryPool pool) {
    this.pool = pool;
  }

  /** Starts receiving a block of {@code length} bytes, taking its memory now. */
  PendingPut begin(BlockId id, long length) {
    if (length == 0) {
      return new PendingPut(id, Unpooled.EMPTY_BUFFER);
    }
    if (!pool.canEverHold(length)) {
      throw new ScacheException(Status.BLOCK_TOO_LARGE, id + " has " + length
          + " bytes, more than one memory segment of this worker holds");
    }
    MemoryPool.Region region = pool.allocate(length).orElseThrow(() -> new ScacheException(Status.STORE_FULL,
        "no room for " + id + " (" + length + " bytes): " + pool.usedBytes() + " of " + pool.reservedBytes()
            + " reserved bytes in use"));
    return new PendingPut(id, new BlockBuffer(pool, region));
  }

  /**
   * Makes a completely received block visible. Returns false when the same block was already
   * stored (the new copy is dropped: blocks are immutable).
   */
  boolean commit(PendingPut put) {
    if (!put.isComplete()) {
      put.abort();
      throw new ScacheException(Status.MALFORMED_MESSAGE, "block " + put.id() + " is incomplete");
    }
    StoredBlock block = new StoredBlock(put.id(), put.take());
    synchronized (this) {
      if (blocks.containsKey(put.id())) {
        block.release();
        return false;
      }
      blocks.put(put.id(), block);
      byShuffle.computeIfAbsent(put.id().shuffle(), k -> new HashSet<>()).add(put.id());
    }
    storedBytes.addAndGet(block.size());
    return true;
  }

  /** The block stored under exactly this id (attempt included). */
  synchronized Optional<StoredBlock> get(BlockId id) {
    return Optional.ofNullable(blocks.get(id));
  }

  /**
   * Reads a block for sending: the returned buffer keeps the memory alive until released, even if
   * the block is removed meanwhile.
   */
  synchronized Optional<io.netty.buffer.ByteBuf> read(BlockId id) {
    StoredBlock b = blocks.get(id);
    return b == null ? Optional.empty() : Optional.of(b.retainedData());
  }

  /** Pins a block for a local reader of the shared memory ({@link StoredBlock#pin()}). */
  synchronized Optional<StoredBlock.Pinned> pin(BlockId id) {
    StoredBlock b = blocks.get(id);
    return b == null ? Optional.empty() : b.pin();
  }

  /**
   * Stores copies of blocks held by other workers (prefetched) as slices of one new region of the
   * reserve, in list order; {@code data} holds their bytes concatenated and stays the caller's.
   * Blocks already held are skipped. Returns the number of copies stored.
   *
   * @throws ScacheException STORE_FULL or BLOCK_TOO_LARGE when the region cannot be had
   */
  int storeCopies(List<BlockSize> layout, io.netty.buffer.ByteBuf data) {
    long total = 0;
    for (BlockSize b : layout) {
      total += b.size();
    }
    io.netty.buffer.ByteBuf region = Unpooled.EMPTY_BUFFER;
    if (total > 0) {
      PendingPut put = begin(layout.get(0).blockId(), total);
      put.write(data.slice(data.readerIndex(), (int) total));
      region = put.take();
    }
    int stored = 0;
    long added = 0;
    try {
      int offset = 0;
      synchronized (this) {
        for (BlockSize b : layout) {
          int size = (int) b.size();
          if (!blocks.containsKey(b.blockId())) {
            io.netty.buffer.ByteBuf slice = size == 0 ? Unpooled.EMPTY_BUFFER : region.retainedSlice(offset, size);
            blocks.put(b.blockId(), new StoredBlock(b.blockId(), slice));
            byShuffle.computeIfAbsent(b.blockId().shuffle(), k -> new HashSet<>()).add(b.blockId());
            copies.add(b.blockId());
            stored++;
            added += size;
          }
          offset += size;
        }
      }
    } finally {
      region.release();
    }
    storedBytes.addAndGet(added);
    return stored;
  }

  /** Whether the block is held here as a prefetched copy. */
  synchronized boolean isCopy(BlockId id) {
    return copies.contains(id);
  }

  /** Declares {@code attempt} the final attempt of a map: blocks of its other attempts are dropped. */
  void mapFinished(ShuffleKey shuffle, int mapId, int attempt) {
    removeWhere(shuffle, id -> id.mapId() == mapId && id.attempt() != attempt);
  }

  void removeShuffle(ShuffleKey shuffle) {
    removeWhere(shuffle, id -> true);
  }

  void removeApplication(String appId) {
    List<ShuffleKey> shuffles;
    synchronized (this) {
      shuffles = byShuffle.keySet().stream().filter(k -> k.appId().equals(appId)).toList();
    }
    shuffles.forEach(this::removeShuffle);
  }

  private void removeWhere(ShuffleKey shuffle, java.util.function.Predicate<BlockId> which) {
    List<StoredBlock> removed = new ArrayList<>();
    synchronized (this) {
      Set<BlockId> ids = byShuffle.get(shuffle);
      if (ids == null) {
        return;
      }
      ids.removeIf(id -> {
        if (which.test(id)) {
          copies.remove(id);
          removed.add(blocks.remove(id));
          return true;
        }
        return false;
      });
      if (ids.isEmpty()) {
        byShuffle.remove(shuffle);
      }
    }
    for (StoredBlock b : removed) {
      storedBytes.addAndGet(-b.size());
      b.release();
    }
  }

  /** Every block held, with its size (for reporting to a master that lost track). */
  synchronized List<BlockSize> inventory() {
    List<BlockSize> list = new ArrayList<>(blocks.size());
    blocks.values().forEach(b -> {
      if (!copies.contains(b.id())) {
        list.add(new BlockSize(b.id(), b.size()));
      }
    });
    return list;
  }

  /** Applications this store holds blocks of. */
  synchronized Set<String> applications() {
    Set<String> apps = new HashSet<>();
    byShuffle.keySet().forEach(k -> apps.add(k.appId()));
    return apps;
  }

  synchronized int blockCount() {
    return blocks.size();
  }

  /** Bytes of block data held. */
  long storedBytes() {
    return storedBytes.get();
  }

  /** Bytes of the reserve in use, including alignment and puts in progress. */
  long usedBytes() {
    return pool.usedBytes();
  }

  long reservedBytes() {
    return pool.reservedBytes();
  }

  @Override
  public synchronized void close() {
    blocks.values().forEach(StoredBlock::release);
    blocks.clear();
    byShuffle.clear();
    copies.clear();
  }
}
