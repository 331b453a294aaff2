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
 * The {@link BlockStore}'s blocks, by id (through the {@link BlockOrder}, which holds them by shuffle and map attempt
 * for its rounds: one index, not two), with their exact accounting: every held block counts once, its bytes in
 * memory or on disk, in the {@link BlockQuota} and in the {@link BlockOrder}. Not thread-safe: guarded by the store,
 * which checks each change against a block's state first.
 */
final class BlockIndex {
  private final BlockQuota quota;
  private final BlockOrder order;
  /** The prefetched copies held, per application oldest first: what makes room when a map's block meets the limit. */
  private final Map<String, HeldCopies> copies = new HashMap<>();
  private int blockCount;
  private long memoryBytes;
  private long spilledBytes;
  private int spilledBlocks;

  BlockIndex(BlockQuota quota, BlockOrder order) {
    this.quota = quota;
    this.order = order;
  }

  StoredBlock get(BlockId id) {
    return order.find(id);
  }

  boolean contains(BlockId id) {
    return order.find(id) != null;
  }

  /** Whether a block of {@code id} would be the first of its map attempt held here (its entry costs the quota). */
  boolean opensMapAttempt(BlockId id) {
    return order.mapAttempt(id.shuffle(), id.mapId(), id.attempt()) == null;
  }

  /** Whether {@code b} is held (not removed since it was looked up). */
  boolean holds(StoredBlock b) {
    return b.held();
  }

  /** Adds a new block, in memory or spilled when it was put, whose id is not held; the block held. */
  StoredBlock add(ArrivingBlock arriving) {
    StoredBlock b = order.hold(arriving);
    blockCount++;
    // the first slot of its map attempt: it opened the attempt's entry (an attempt whose blocks all went is forgotten)
    quota.added(b.appId(), quota.cost(b.blocks().slots() == 1));
    if (b.isCopy() && b.blocks().copiesHeld() == 1) {
      // its map attempt's first copy held: the attempt's copies leave in the order their first came
      copies.computeIfAbsent(b.appId(), a -> new HeldCopies()).add(b.blocks());
    }
    if (b.inMemory()) {
      memoryBytes += b.size();
    } else {
      spilledBytes += b.size();
      spilledBlocks++;
    }
    return b;
  }

  /** A map attempt's blocks all came (its end was declared): it keeps no room for more. */
  void mapEnded(ShuffleKey shuffle, int mapId, int attempt) {
    MapBlocks m = order.mapAttempt(shuffle, mapId, attempt);
    if (m != null) {
      m.trim();
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
    // only a block held: a copy's count taken down once
    boolean held = b.held();
    order.remove(b);
    if (held) {
      blockCount--;
      // its map attempt's entry goes with its last block
      quota.removed(b.appId(), quota.blockCost() + (b.blocks().held() == 0 ? quota.mapAttemptCost() : 0));
    }
    if (held && b.isCopy() && b.blocks().copiesHeld() == 0) {
      HeldCopies copiesOfApp = copies.get(b.appId());
      if (copiesOfApp != null && copiesOfApp.removed() == 0) {
        copies.remove(b.appId());
      }
    }
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
        return held.getValue().oldest();
      }
    }
    return Optional.empty();
  }

  /**
   * An application's map attempts with prefetched copies held, in the order their first copy came, a reference
   * each: an attempt whose copies all went stays in the queue until it reaches its head or the queue holds more than
   * twice the attempts with copies, when it is compacted. Their copies leave attempt by attempt, each attempt's in
   * the order they came.
   */
  private static final class HeldCopies {
    private final java.util.ArrayDeque<MapBlocks> queue = new java.util.ArrayDeque<>();
    private int withCopies;

    void add(MapBlocks attempt) {
      queue.addLast(attempt);
      withCopies++;
    }

    /** The last copy of one of the attempts was removed; the attempts with copies still held. */
    int removed() {
      withCopies--;
      if (queue.size() > 2 * withCopies + 16) {
        queue.removeIf(m -> m.copiesHeld() == 0);
      }
      return withCopies;
    }

    Optional<StoredBlock> oldest() {
      while (!queue.isEmpty() && queue.peekFirst().copiesHeld() == 0) {
        queue.pollFirst();
      }
      MapBlocks m = queue.peekFirst();
      return m == null ? Optional.empty() : Optional.of(new StoredBlock(m, m.firstHeldCopy()));
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

  /** Every block on disk whose spill location {@code where} accepts. */
  List<StoredBlock> spilledWhere(Predicate<SpillStore.Location> where) {
    List<StoredBlock> out = new ArrayList<>();
    forEachHeld((m, s) -> {
      if (m.spilled(s).filter(where).isPresent()) {
        out.add(new StoredBlock(m, s));
      }
    });
    return out;
  }

  /** Every block held but prefetched copies, with its size. */
  List<BlockSize> inventory() {
    List<BlockSize> list = new ArrayList<>(blockCount);
    forEachHeld((m, s) -> {
      if (!m.copy(s)) {
        StoredBlock b = new StoredBlock(m, s);
        list.add(new BlockSize(b.id(), b.size()));
      }
    });
    return list;
  }

  /** What is done with each block held: its map attempt and slot. */
  private interface HeldBlockAction {
    void accept(MapBlocks attempt, int slot);
  }

  private void forEachHeld(HeldBlockAction action) {
    for (ShuffleBlocks shuffle : order.held()) {
      shuffle.forEachMapAttempt(m -> {
        for (int s = 0; s < m.slots(); s++) {
          if (m.held(s)) {
            action.accept(m, s);
          }
        }
      });
    }
  }

  int blockCount() {
    return blockCount;
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
    forEachHeld(MapBlocks::release);
    blockCount = 0;
    copies.clear();
    order.clear();
    memoryBytes = 0;
    spilledBytes = 0;
    spilledBlocks = 0;
  }
}
