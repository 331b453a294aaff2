package org.scache.worker.store;

import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
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

  /**
   * A block with the policy's view of it when it was placed; {@code counted}: its spilled bytes count in its round.
   * Its round is the candidate's, not kept a second time: a block costs the heap it must.
   */
  private record Ranked(SpillCandidate candidate, StoredBlock block, boolean counted) {
    /** The block's round when it was placed; null if its shuffle was not placed then. */
    RoundKey round() {
      return candidate.scheduled() ? new RoundKey(block.id().shuffle(), candidate.round()) : null;
    }

    boolean inRound(int round) {
      return candidate.scheduled() && candidate.round() == round;
    }
  }

  private final SpillPolicy policy;
  private final PlacementBook rounds;
  private final TreeSet<Ranked> inMemory;
  private final TreeSet<Ranked> spilledUnread;
  private final Map<ShuffleKey, ShuffleBlocks> byShuffle = new HashMap<>();
  private final Map<RoundKey, Integer> spilledUnreadInRound = new HashMap<>();
  /** Rounds that became, or stopped being, kept in part here while a change was placed. */
  private final ArrayDeque<RoundKey> turned = new ArrayDeque<>();

  BlockOrder(SpillPolicy policy, PlacementBook rounds) {
    this.policy = policy;
    this.rounds = rounds;
    Comparator<Ranked> order = Comparator.comparing(Ranked::candidate, policy.victimOrder());
    this.inMemory = new TreeSet<>(order);
    this.spilledUnread = new TreeSet<>(order);
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
      for (StoredBlock other : blocksOf(k.shuffle())) {
        Ranked r = (Ranked) other.orderEntry();
        // every block of the set is of the round's shuffle
        if (other != b && r != null && r.inRound(k.round())) {
          placeOne(other);
        }
      }
    }
    return any;
  }

  /** A block was read: it moves only if the policy orders by last use. */
  void used(StoredBlock b) {
    if (policy.ordersByLastUse()) {
      place(b);
    }
  }

  /** Forgets a block removed from the store. */
  void remove(StoredBlock b) {
    Ranked r = take(b);
    if (r == null) {
      return;
    }
    inMemory.remove(r);
    spilledUnread.remove(r);
    if (r.counted()) {
      uncount(r.round());
    }
    ShuffleKey shuffle = b.id().shuffle();
    ShuffleBlocks members = byShuffle.get(shuffle);
    if (members != null && members.remove(b) && members.isEmpty()) {
      byShuffle.remove(shuffle);
    }
    // the blocks of a round this removal made whole move down the victim order
    placeTurnedRounds(null);
  }

  /** Every block of the shuffle now (the store's one index of its blocks by shuffle), in a list of the caller's. */
  java.util.List<StoredBlock> blocksOf(ShuffleKey shuffle) {
    ShuffleBlocks members = byShuffle.get(shuffle);
    return members == null ? java.util.List.of() : members.snapshot();
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
    Ranked next = inMemory.higher(new Ranked(previous.rank(), previous.block(), false));
    return Optional.ofNullable(next).map(BlockOrder::victim);
  }

  private static Victim victim(Ranked r) {
    return new Victim(r.block(), r.candidate());
  }

  /** Whether a block not stored yet would leave before every block in memory. */
  boolean wouldLeaveFirst(BlockId id, long size, long nowNanos) {
    if (inMemory.isEmpty()) {
      return true;
    }
    SpillCandidate incoming = candidate(id, size, false, false, nowNanos,
        rounds.placement(id.shuffle(), id.reduceId()));
    return policy.victimOrder().compare(incoming, inMemory.first().candidate()) < 0;
  }

  /** The spilled block no reducer has read that the policy would keep longest, if any. */
  Optional<StoredBlock> firstToLoadBack() {
    return spilledUnread.isEmpty() ? Optional.empty() : Optional.of(spilledUnread.last().block());
  }

  /** Rounds of which a block is spilled here and not read by a reducer yet. */
  Set<RoundKey> keptInPart() {
    return spilledUnreadInRound.isEmpty() ? Set.of() : new HashSet<>(spilledUnreadInRound.keySet());
  }

  /** Every block in memory, first victim first. */
  java.util.List<StoredBlock> victimsInOrder() {
    return inMemory.stream().map(Ranked::block).toList();
  }

  void clear() {
    inMemory.clear();
    spilledUnread.clear();
    byShuffle.values().forEach(members -> {
      members.snapshot().forEach(b -> b.orderEntry(null));
      members.clear();
    });
    byShuffle.clear();
    spilledUnreadInRound.clear();
    turned.clear();
  }

  private void placeOne(StoredBlock b) {
    Ranked old = take(b);
    if (old != null) {
      inMemory.remove(old);
      spilledUnread.remove(old);
    } else {
      byShuffle.computeIfAbsent(b.id().shuffle(), k -> new ShuffleBlocks()).add(b);
    }
    Optional<PlacementBook.Placement> placement = rounds.placement(b.id().shuffle(), b.id().reduceId());
    RoundKey round = placement.map(pl -> new RoundKey(b.id().shuffle(), pl.round())).orElse(null);
    boolean counts = round != null && !b.inMemory() && b.spilled().isPresent() && !b.consumed();
    RoundKey wasCounted = old != null && old.counted() ? old.round() : null;
    RoundKey nowCounted = counts ? round : null;
    if (!Objects.equals(wasCounted, nowCounted)) {
      if (wasCounted != null) {
        uncount(wasCounted);
      }
      if (nowCounted != null) {
        count(nowCounted);
      }
    }
    Ranked r = new Ranked(candidate(b.id(), b.size(), b.isCopy(), b.consumed(), b.lastAccessNanos(), placement), b,
        counts);
    b.orderEntry(r);
    if (b.inMemory() && b.size() > 0) {
      inMemory.add(r);
    } else if (b.spilled().isPresent() && !b.inMemory() && !b.consumed()) {
      spilledUnread.add(r);
    }
  }

  /** The block's entry, which it no longer holds; null if it was not placed. */
  private static Ranked take(StoredBlock b) {
    Ranked r = (Ranked) b.orderEntry();
    b.orderEntry(null);
    return r;
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
    boolean partial = spilledUnreadInRound.containsKey(new RoundKey(id.shuffle(), round))
        || rounds.incompleteInCluster(id.shuffle(), round);
    return new SpillCandidate(id, size, copy, consumed, lastAccess, true, p.get().submissionTimeMillis(),
        p.get().round(), partial);
  }
}
