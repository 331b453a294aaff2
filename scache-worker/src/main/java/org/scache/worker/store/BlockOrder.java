package org.scache.worker.store;

import java.util.ArrayDeque;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.scache.common.BlockId;
import org.scache.common.ShuffleKey;
import org.scache.worker.spill.SpillCandidate;
import org.scache.worker.spill.SpillPolicy;

/**
 * The store's blocks in the {@link SpillPolicy}'s order, kept as blocks change instead of sorted when
 * a put must spill: the blocks in memory, first victim first, and the spilled blocks no reducer has
 * read, whose last is the first to load back. It also counts, per round, the spilled blocks no reducer
 * has read: a round with any is kept only in part here, which moves every block of it up the victim
 * order (all-or-nothing).
 *
 * <p>The store tells it of every change that can move a block: a block added, removed, spilled,
 * loaded back, read ({@link #place}, {@link #used}), and a placement or a round's state learned from the master
 * ({@link #placementChanged}). Guarded by the {@link BlockStore}.
 */
final class BlockOrder {
  /** A round of a shuffle: the unit the paper's all-or-nothing constraint keeps whole. */
  record RoundKey(ShuffleKey shuffle, int round) {}

  private final SpillPolicy policy;
  private final PlacementBook rounds;
  /** Blocks, linked through themselves ({@link StoredBlock} is a {@link SpillCandidate} as last placed). */
  private final VictimTree inMemory;
  private final VictimTree spilledUnread;
  private final Map<ShuffleKey, ShuffleBlocks> byShuffle = new HashMap<>();
  private final Map<RoundKey, Integer> spilledUnreadInRound = new HashMap<>();
  /** Rounds that became, or stopped being, kept in part here while a change was placed. */
  private final ArrayDeque<RoundKey> turned = new ArrayDeque<>();

  BlockOrder(SpillPolicy policy, PlacementBook rounds) {
    this.policy = policy;
    this.rounds = rounds;
    this.inMemory = new VictimTree(policy.victimOrder());
    this.spilledUnread = new VictimTree(policy.victimOrder());
  }

  SpillPolicy policy() {
    return policy;
  }

  /**
   * Puts a new or changed block where its state says, and every block whose round it turned. Returns
   * whether a round turned (became, or stopped being, kept in part here).
   */
  boolean place(StoredBlock b) {
    placeOne(b);
    return placeTurnedRounds(b);
  }

  private boolean placeTurnedRounds(StoredBlock b) {
    boolean any = !turned.isEmpty();
    while (!turned.isEmpty()) {
      RoundKey k = turned.poll();
      placeRounds(k.shuffle(), Set.of(k.round()), b);
    }
    return any;
  }

  /** Places again every block of {@code shuffle}'s rounds {@code which} but {@code except}. */
  private void placeRounds(ShuffleKey shuffle, Set<Integer> which, StoredBlock except) {
    ShuffleBlocks members = byShuffle.get(shuffle);
    if (members == null) {
      return;
    }
    // a round's blocks are those of its reduces (a placement learnt meanwhile places every block again)
    List<Integer> reduces = members.reduces().stream().filter(r -> rounds.placement(shuffle, r)
        .filter(p -> which.contains(p.round())).isPresent()).toList();
    for (int r : reduces) {
      for (StoredBlock other : members.ofReduce(r)) {
        if (other != except && other.ranked()) {
          placeOne(other);
        }
      }
    }
  }

  /** The master's view of which of the shuffle's rounds are kept in part changed for rounds {@code turned}. */
  void roundsTurnedInCluster(ShuffleKey shuffle, Set<Integer> turned) {
    placeRounds(shuffle, turned, null);
  }

  /** A block was read at {@code nowNanos}: it moves only if the policy orders by last use. */
  void used(StoredBlock b, long nowNanos) {
    if (!policy.ordersByLastUse() || !b.ranked()) {
      b.touch(nowNanos);
      return;
    }
    // out of the sets before its last use changes: they find it by the use they sorted it by
    inMemory.remove(b);
    spilledUnread.remove(b);
    b.touch(nowNanos);
    place(b);
  }

  /** Forgets a block removed from the store. */
  void remove(StoredBlock b) {
    if (!b.ranked()) {
      return;
    }
    inMemory.remove(b);
    spilledUnread.remove(b);
    if (b.rankedCounted()) {
      uncount(roundOf(b));
    }
    b.unrank();
    ShuffleKey shuffle = b.shuffle();
    ShuffleBlocks members = byShuffle.get(shuffle);
    if (members != null && members.remove(b) && members.isEmpty()) {
      byShuffle.remove(shuffle);
    }
    // the blocks of a round this removal made whole move down the victim order
    placeTurnedRounds(null);
  }

  /** Every block of the shuffle now (the store's one index of its blocks by shuffle), in a list of the caller's. */
  List<StoredBlock> blocksOf(ShuffleKey shuffle) {
    ShuffleBlocks members = byShuffle.get(shuffle);
    return members == null ? List.of() : members.snapshot();
  }

  /** The blocks of one map of the shuffle, every attempt's, in a list of the caller's. */
  List<StoredBlock> blocksOfMap(ShuffleKey shuffle, int mapId) {
    ShuffleBlocks members = byShuffle.get(shuffle);
    return members == null ? List.of() : members.ofMap(mapId);
  }

  /** The blocks of one reduce of the shuffle, in a list of the caller's. */
  List<StoredBlock> blocksOfReduce(ShuffleKey shuffle, int reduceId) {
    ShuffleBlocks members = byShuffle.get(shuffle);
    return members == null ? List.of() : members.ofReduce(reduceId);
  }

  /** The shuffles of which a block is held. */
  Set<ShuffleKey> shuffles() {
    return Collections.unmodifiableSet(byShuffle.keySet());
  }

  /** The shuffle's rounds or the master's view of them changed: every block of it is placed again. */
  void placementChanged(ShuffleKey shuffle) {
    for (StoredBlock b : blocksOf(shuffle)) {
      place(b);
    }
  }

  /** A block in memory and its place in the victim order when it was looked up. */
  record Victim(StoredBlock block, SpillCandidate rank) {}

  /** The block in memory that leaves first, if any. */
  Optional<Victim> firstVictim() {
    return inMemory.isEmpty() ? Optional.empty() : Optional.of(victim(inMemory.first()));
  }

  /**
   * The block in memory that leaves after {@code previous} in the order as it is now: a walk down
   * the order that goes on where it was, whatever was evicted or moved meanwhile.
   */
  Optional<Victim> victimAfter(Victim previous) {
    return Optional.ofNullable(inMemory.higher(previous.rank())).map(BlockOrder::victim);
  }

  private static Victim victim(StoredBlock b) {
    return new Victim(b, b.rankNow());
  }

  /** Whether a block not stored yet would leave before every block in memory. */
  boolean wouldLeaveFirst(BlockId id, long size, long nowNanos) {
    if (inMemory.isEmpty()) {
      return true;
    }
    SpillCandidate incoming = candidate(id, size, false, false, nowNanos,
        rounds.placement(id.shuffle(), id.reduceId()));
    return policy.victimOrder().compare(incoming, inMemory.first()) < 0;
  }

  /** The spilled block no reducer has read that the policy would keep longest, if any. */
  Optional<StoredBlock> firstToLoadBack() {
    return Optional.ofNullable(spilledUnread.last());
  }

  /** Rounds of which a block is spilled here and not read by a reducer yet. */
  Set<RoundKey> keptInPart() {
    return spilledUnreadInRound.isEmpty() ? Set.of() : new HashSet<>(spilledUnreadInRound.keySet());
  }

  /** Every block in memory, first victim first. */
  List<StoredBlock> victimsInOrder() {
    return inMemory.inOrder();
  }

  void clear() {
    inMemory.clear();
    spilledUnread.clear();
    byShuffle.values().forEach(members -> {
      members.snapshot().forEach(StoredBlock::unrank);
      members.clear();
    });
    byShuffle.clear();
    spilledUnreadInRound.clear();
    turned.clear();
  }

  private void placeOne(StoredBlock b) {
    RoundKey wasCounted = null;
    if (b.ranked()) {
      inMemory.remove(b);
      spilledUnread.remove(b);
      wasCounted = b.rankedCounted() ? roundOf(b) : null;
    } else {
      byShuffle.computeIfAbsent(b.shuffle(), ShuffleBlocks::new).add(b);
    }
    ShuffleKey shuffle = b.shuffle();
    Optional<PlacementBook.Placement> placement = rounds.placement(shuffle, b.reduceId());
    RoundKey round = placement.map(pl -> new RoundKey(shuffle, pl.round())).orElse(null);
    boolean counts = round != null && !b.inMemory() && b.spilled().isPresent() && !b.readByReducer();
    RoundKey nowCounted = counts ? round : null;
    if (!Objects.equals(wasCounted, nowCounted)) {
      if (wasCounted != null) {
        uncount(wasCounted);
      }
      if (nowCounted != null) {
        count(nowCounted);
      }
    }
    if (placement.isEmpty()) {
      b.rank(null, false, false);
    } else {
      b.rank(placement.get(), partial(shuffle, placement.get().round()), counts);
    }
    if (b.inMemory() && b.size() > 0) {
      inMemory.add(b);
    } else if (b.spilled().isPresent() && !b.inMemory() && !b.readByReducer()) {
      spilledUnread.add(b);
    }
  }

  /** The round a ranked block was placed in; null if its shuffle was not placed then. */
  private static RoundKey roundOf(StoredBlock b) {
    return b.scheduled() ? new RoundKey(b.shuffle(), b.round()) : null;
  }

  /** Whether a round is kept only in part: here (a block of it spilled, unread) or somewhere in the cluster. */
  private boolean partial(ShuffleKey shuffle, int round) {
    return spilledUnreadInRound.containsKey(new RoundKey(shuffle, round)) || rounds.incompleteInCluster(shuffle, round);
  }

  private void count(RoundKey k) {
    if (spilledUnreadInRound.merge(k, 1, Integer::sum) == 1) {
      turned.add(k);
    }
  }

  private void uncount(RoundKey k) {
    Integer n = spilledUnreadInRound.get(k);
    if (n == null) {
      return;
    }
    if (n <= 1) {
      spilledUnreadInRound.remove(k);
      turned.add(k);
    } else {
      spilledUnreadInRound.put(k, n - 1);
    }
  }

  private SpillCandidate candidate(BlockId id, long size, boolean copy, boolean consumed, long lastAccess,
      Optional<PlacementBook.Placement> p) {
    if (p.isEmpty()) {
      return SpillCandidate.unscheduled(id, size, copy, consumed, lastAccess);
    }
    int round = p.get().round();
    return SpillCandidate.of(id, size, copy, consumed, lastAccess, true, p.get().submissionTimeMillis(), round,
        partial(id.shuffle(), round));
  }
}
