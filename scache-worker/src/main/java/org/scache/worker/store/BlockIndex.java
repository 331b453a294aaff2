package org.scache.worker.store;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import org.scache.common.BlockId;
import org.scache.common.ShuffleKey;
import org.scache.common.shuffle.BlockSize;
import org.scache.worker.spill.SpillStore;

/**
 * The {@link BlockStore}'s blocks, by id (and by shuffle through the {@link BlockOrder}, which keeps them so for its
 * rounds: one set per shuffle, not two), with their exact accounting: every held block counts once, its bytes in
 * memory or on disk, in the {@link BlockQuota} and in the {@link BlockOrder}. Not thread-safe: guarded by the store,
 * which checks each change against a block's state first.
 */
final class BlockIndex {
  private final BlockQuota quota;
  private final BlockOrder order;
  private final BlockTable blocks = new BlockTable();
  /** The prefetched copies held, per application oldest first: what makes room when a map's block meets the limit. */
  private final Map<String, HeldCopies> copies = new HashMap<>();
  private long memoryBytes;
  private long spilledBytes;
  private int spilledBlocks;

  BlockIndex(BlockQuota quota, BlockOrder order) {
    this.quota = quota;
    this.order = order;
  }

  StoredBlock get(BlockId id) {
    return blocks.get(id);
  }

  boolean contains(BlockId id) {
    return blocks.get(id) != null;
  }

  /** Whether {@code b} is the block held under its id (not one removed meanwhile). */
  boolean holds(StoredBlock b) {
    return blocks.get(b) == b;
  }

  /** Adds a new block, in memory or spilled when it was put. */
  void add(StoredBlock b) {
    blocks.put(b);
    order.place(b);
    quota.added(b.appId());
    if (b.isCopy()) {
      copies.computeIfAbsent(b.appId(), a -> new HeldCopies()).add(b);
    }
    if (b.inMemory()) {
      memoryBytes += b.size();
    } else {
      spilledBytes += b.size();
      spilledBlocks++;
    }
  }

  /** A held block's bytes moved from memory to disk. */
  void spilled(StoredBlock b) {
    memoryBytes -= b.size();
    spilledBytes += b.size();
    spilledBlocks++;
    order.place(b);
  }

  /** A held block's bytes moved from disk back to memory. */
  void loadedBack(StoredBlock b) {
    memoryBytes += b.size();
    spilledBytes -= b.size();
    spilledBlocks--;
    order.place(b);
  }

  /**
   * Removes a held block and gives back its memory (readers that hold its bytes keep them until they
   * release them); returns its place on disk, which the caller frees.
   */
  Optional<SpillStore.Location> remove(StoredBlock b) {
    // only the block itself: not another held under its id, and a copy's count taken down once
    boolean held = blocks.get(b) == b;
    if (held) {
      blocks.remove(b);
      quota.removed(b.appId());
    }
    if (held && b.isCopy()) {
      HeldCopies copiesOfApp = copies.get(b.appId());
      if (copiesOfApp != null && copiesOfApp.removed(this) == 0) {
        copies.remove(b.appId());
      }
    }
    order.remove(b);
    if (b.inMemory()) {
      memoryBytes -= b.size();
    } else if (b.spilled().isPresent()) {
      spilledBytes -= b.size();
      spilledBlocks--;
    }
    return b.release();
  }

  /** Every block of {@code shuffle}. */
  List<StoredBlock> of(ShuffleKey shuffle) {
    return order.blocksOf(shuffle);
  }

  /** The blocks of one map of {@code shuffle}, every attempt's. */
  List<StoredBlock> ofMap(ShuffleKey shuffle, int mapId) {
    return order.blocksOfMap(shuffle, mapId);
  }

  /** The blocks of one reduce of {@code shuffle}. */
  List<StoredBlock> ofReduce(ShuffleKey shuffle, int reduceId) {
    return order.blocksOfReduce(shuffle, reduceId);
  }

  /** The oldest prefetched copy of an application {@code whose} accepts. */
  Optional<StoredBlock> oldestCopy(Predicate<String> whose) {
    for (Map.Entry<String, HeldCopies> held : copies.entrySet()) {
      if (whose.test(held.getKey())) {
        return held.getValue().oldest(this);
      }
    }
    return Optional.empty();
  }

  /**
   * An application's prefetched copies in the order they came, a reference each: a copy removed stays in the queue
   * until it reaches its head or the queue holds more than twice the copies held, when it is compacted.
   */
  private static final class HeldCopies {
    private final java.util.ArrayDeque<StoredBlock> queue = new java.util.ArrayDeque<>();
    private int held;

    void add(StoredBlock copy) {
      queue.addLast(copy);
      held++;
    }

    /** One of the copies was removed from {@code index}; the copies still held. */
    int removed(BlockIndex index) {
      held--;
      if (queue.size() > 2 * held + 16) {
        queue.removeIf(c -> !index.holds(c));
      }
      return held;
    }

    Optional<StoredBlock> oldest(BlockIndex index) {
      while (!queue.isEmpty() && !index.holds(queue.peekFirst())) {
        queue.pollFirst();
      }
      return Optional.ofNullable(queue.peekFirst());
    }
  }

  /** The shuffles of {@code appId} this index holds blocks of. */
  List<ShuffleKey> shufflesOf(String appId) {
    return order.shuffles().stream().filter(k -> k.appId().equals(appId)).toList();
  }

  /** Applications this index holds blocks of. */
  Set<String> applications() {
    Set<String> apps = new HashSet<>();
    order.shuffles().forEach(k -> apps.add(k.appId()));
    return apps;
  }

  /** Every block in memory or on disk whose spill location {@code where} accepts. */
  List<StoredBlock> spilledWhere(Predicate<SpillStore.Location> where) {
    List<StoredBlock> out = new ArrayList<>();
    blocks.forEach(b -> {
      if (!b.inMemory() && b.spilled().filter(where).isPresent()) {
        out.add(b);
      }
    });
    return out;
  }

  /** Every block held but prefetched copies, with its size. */
  List<BlockSize> inventory() {
    List<BlockSize> list = new ArrayList<>(blocks.size());
    blocks.forEach(b -> {
      if (!b.isCopy()) {
        list.add(new BlockSize(b.id(), b.size()));
      }
    });
    return list;
  }

  int blockCount() {
    return blocks.size();
  }

  int spilledBlockCount() {
    return spilledBlocks;
  }

  long memoryBytes() {
    return memoryBytes;
  }

  long spilledBytes() {
    return spilledBytes;
  }

  /** Releases every block's memory and forgets every block. */
  void clear() {
    blocks.forEach(StoredBlock::release);
    blocks.clear();
    copies.clear();
    order.clear();
    memoryBytes = 0;
    spilledBytes = 0;
    spilledBlocks = 0;
  }
}
