package org.scache.worker.store;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
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
 * <p>It keeps them in two levels: {@link VictimGroup}s in the policy's order, and each group's blocks. Under the
 * paper's policy a group is the blocks of one reduce that are alike (copies or not, read or not), whose rank is their
 * reduce's, so that a placement learnt or a round that turns moves a reduce's few groups, not each of its blocks; a
 * placement of a shuffle of M x R blocks held here re-ranks at most 4 R groups. Under a policy that ranks each block
 * by its own last use a group is one block.
 *
 * <p>It also holds the blocks themselves, by shuffle ({@link ShuffleBlocks}) and map attempt ({@link MapBlocks}):
 * the store's one index of them. The store tells it of every change that can move a block: a block added, removed,
 * spilled, loaded back, read ({@link #hold}, {@link #place}, {@link #used}), and a placement or a round's state
 * learned from the master ({@link #placementChanged}). Guarded by the {@link BlockStore}.
 */
final class BlockOrder {
  /** A round of a shuffle: the unit the paper's all-or-nothing constraint keeps whole. */
  record RoundKey(ShuffleKey shuffle, int round) {}

  private final SpillPolicy policy;
  private final boolean byReduce;
  private final boolean tracksLastUse;
  private final PlacementBook rounds;
  /** Groups of blocks in memory ({@link VictimGroup#IN_MEMORY}) and of spilled unread ones, each in order. */
  private final VictimTree<VictimGroup> inMemory;
  private final VictimTree<VictimGroup> spilledUnread;
  private final Map<ShuffleKey, ShuffleBlocks> byShuffle = new HashMap<>();
  private final Map<RoundKey, Integer> spilledUnreadInRound = new HashMap<>();
  /** Rounds that became, or stopped being, kept in part here while a change was placed. */
  private final ArrayDeque<RoundKey> turned = new ArrayDeque<>();
  /** Groups ranked (put in their tree) so far: what a change costs the order. */
  private long groupsRanked;

  BlockOrder(SpillPolicy policy, PlacementBook rounds) {
    this.policy = policy;
    this.byReduce = policy.ranksByReduce();
    this.tracksLastUse = policy.ordersByLastUse();
    this.rounds = rounds;
    this.inMemory = new VictimTree<>(policy.victimOrder());
    this.spilledUnread = new VictimTree<>(policy.victimOrder());
  }

  SpillPolicy policy() {
    return policy;
  }

  /** Holds a block whose id is not held, taking its bytes, and puts it where its state says; the block held. */
  StoredBlock hold(ArrivingBlock block) {
    ShuffleBlocks members = byShuffle.computeIfAbsent(block.id().shuffle(),
        k -> new ShuffleBlocks(k, !byReduce, tracksLastUse));
    StoredBlock b = members.add(block);
    join(b, null);
    placeTurnedRounds();
    return b;
  }

  /** The block held under {@code id}, or null. */
  StoredBlock find(BlockId id) {
    ShuffleBlocks members = byShuffle.get(id.shuffle());
    return members == null ? null : members.find(id.mapId(), id.attempt(), id.reduceId());
  }

  /** The map attempt of a shuffle held, or null. */
  MapBlocks mapAttempt(ShuffleKey shuffle, int mapId, int attempt) {
    ShuffleBlocks members = byShuffle.get(shuffle);
    return members == null ? null : members.mapAttempt(mapId, attempt);
  }

  /** Every shuffle's blocks held. */
  Collection<ShuffleBlocks> held() {
    return Collections.unmodifiableCollection(byShuffle.values());
  }

  /**
   * Puts a changed block where its state says, and every block whose round it turned. Returns
   * whether a round turned (became, or stopped being, kept in part here).
   */
  boolean place(StoredBlock b) {
    if (b.held()) {
      join(b, leaveGroup(b, false));
    }
    return placeTurnedRounds();
  }

  private boolean placeTurnedRounds() {
    boolean any = !turned.isEmpty();
    while (!turned.isEmpty()) {
      RoundKey k = turned.poll();
      placeRounds(k.shuffle(), Set.of(k.round()));
    }
    return any;
  }

  /** Ranks again every block of {@code shuffle}'s rounds {@code which}. */
  private void placeRounds(ShuffleKey shuffle, Set<Integer> which) {
    ShuffleBlocks members = byShuffle.get(shuffle);
    if (members == null) {
      return;
    }
    // a round's blocks are those of its reduces (a placement learnt meanwhile places every block again)
    List<Integer> reduces = members.reduces().stream().filter(r -> rounds.placement(shuffle, r)
        .filter(p -> which.contains(p.round())).isPresent()).toList();
    for (int r : reduces) {
      if (byReduce) {
        members.groupsOf(r).forEach(this::rank);
      } else {
        members.ofReduce(r).forEach(this::rankGroupOf);
      }
    }
  }

  /** The master's view of which of the shuffle's rounds are kept in part changed for rounds {@code turned}. */
  void roundsTurnedInCluster(ShuffleKey shuffle, Set<Integer> turned) {
    placeRounds(shuffle, turned);
    placeTurnedRounds();
  }

  /** A block was read at {@code nowNanos}: it moves only if the policy orders by last use. */
  void used(StoredBlock b, long nowNanos) {
    if (!tracksLastUse || !b.held()) {
      b.touch(nowNanos);
      return;
    }
    // out of its group before its last use changes: the trees find it by the use they sorted it by
    RoundKey counted = leaveGroup(b, false);
    b.touch(nowNanos);
    join(b, counted);
    placeTurnedRounds();
  }

  /** Forgets a block removed from the store. */
  void remove(StoredBlock b) {
    if (!b.held()) {
      return;
    }
    leaveGroup(b, true);
    ShuffleKey shuffle = b.shuffle();
    ShuffleBlocks members = byShuffle.get(shuffle);
    if (members != null && members.remove(b) && members.isEmpty()) {
      byShuffle.remove(shuffle);
    }
    // the blocks of a round this removal made whole move down the victim order
    placeTurnedRounds();
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

  /** The shuffle's rounds or the master's view of them changed: every block of it is ranked again. */
  void placementChanged(ShuffleKey shuffle) {
    ShuffleBlocks members = byShuffle.get(shuffle);
    if (members == null) {
      return;
    }
    if (byReduce) {
      members.groups().forEach(this::rank);
    } else {
      members.snapshot().forEach(this::rankGroupOf);
    }
    placeTurnedRounds();
  }

  /** Groups ranked so far, each time one was put in its tree. */
  long groupsRanked() {
    return groupsRanked;
  }

  /** A block in memory and its place in the victim order when it was looked up. */
  record Victim(StoredBlock block, SpillCandidate rank) {}

  /** The block in memory that leaves first, if any. */
  Optional<Victim> firstVictim() {
    return inMemory.isEmpty() ? Optional.empty() : Optional.of(victim(inMemory.first().first()));
  }

  /**
   * The block in memory that leaves after {@code previous} in the order as it is now: a walk down
   * the order that goes on where it was, whatever was evicted or moved meanwhile.
   */
  Optional<Victim> victimAfter(Victim previous) {
    SpillCandidate key = previous.rank();
    if (byReduce) {
      // the next of its own group, if the group still ranks as it did; a reduce's group sorts before its blocks
      ShuffleBlocks members = byShuffle.get(new ShuffleKey(key.appId(), key.shuffleId()));
      VictimGroup own = members == null ? null
          : members.group(VictimGroup.key(key.reduceId(), key.copy(), key.consumed(), VictimGroup.IN_MEMORY));
      if (own != null && sameRank(own, key)) {
        StoredBlock next = own.after(key.arrival());
        if (next != null) {
          return Optional.of(victim(next));
        }
      }
    }
    return Optional.ofNullable(inMemory.higher(key)).map(g -> victim(g.first()));
  }

  private static boolean sameRank(VictimGroup g, SpillCandidate c) {
    return g.scheduled() == c.scheduled() && g.submissionTimeMillis() == c.submissionTimeMillis()
        && g.round() == c.round() && g.roundIncomplete() == c.roundIncomplete();
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
    return policy.victimOrder().compare(incoming, inMemory.first().first()) < 0;
  }

  /** The spilled block no reducer has read that the policy would keep longest, if any. */
  Optional<StoredBlock> firstToLoadBack() {
    return Optional.ofNullable(spilledUnread.last()).map(VictimGroup::last);
  }

  /** Rounds of which a block is spilled here and not read by a reducer yet. */
  Set<RoundKey> keptInPart() {
    return spilledUnreadInRound.isEmpty() ? Set.of() : new HashSet<>(spilledUnreadInRound.keySet());
  }

  /** Every block in memory, first victim first. */
  List<StoredBlock> victimsInOrder() {
    List<StoredBlock> out = new ArrayList<>();
    inMemory.inOrder().forEach(g -> out.addAll(g.inOrder()));
    return out;
  }

  void clear() {
    inMemory.clear();
    spilledUnread.clear();
    byShuffle.values().forEach(ShuffleBlocks::clear);
    byShuffle.clear();
    spilledUnreadInRound.clear();
    turned.clear();
  }

  /**
   * Puts a block that is in no group in the one its state says, if any; {@code wasCounted} is the round it counted
   * in until it left its group (it still does), or null.
   */
  private void join(StoredBlock b, RoundKey wasCounted) {
    int where;
    if (b.inMemory() && b.size() > 0) {
      where = VictimGroup.IN_MEMORY;
    } else if (b.spilled().isPresent() && !b.inMemory() && !b.readByReducer()) {
      where = VictimGroup.SPILLED_UNREAD;
    } else {
      if (wasCounted != null) {
        uncount(wasCounted, 1);
      }
      return;
    }
    VictimGroup g;
    if (byReduce) {
      ShuffleBlocks members = byShuffle.get(b.shuffle());
      g = members.group(VictimGroup.key(b.reduceId(), b.isCopy(), b.readByReducer(), where));
      if (g == null) {
        g = VictimGroup.ofReduce(members, b.reduceId(), b.isCopy(), b.readByReducer(), where);
        members.addGroup(g);
      }
    } else {
      g = VictimGroup.ofBlock(b, where);
    }
    if (g.blockCount() > 0) {
      // ranked as its reduce is now before it takes the block (a change not yet told moves the whole group)
      rank(g);
      g.add(b);
      if (g.counted()) {
        count(roundOf(g), 1);
      }
    } else {
      g.add(b);
      rank(g);
    }
    // counted in the new round before it stops counting in the old, so that a round it stays in does not turn
    if (wasCounted != null) {
      uncount(wasCounted, 1);
    }
  }

  /**
   * Ranks a group as its reduce is now, moving it in its tree and its blocks' count in their round if that changed;
   * a group just made, with its first block, goes in its tree.
   */
  private void rank(VictimGroup g) {
    ShuffleKey shuffle = g.shuffle();
    PlacementBook.Placement now = rounds.placement(shuffle, g.reduceId()).orElse(null);
    boolean partial = now != null && partial(shuffle, now.round());
    boolean counts = now != null && g.where() == VictimGroup.SPILLED_UNREAD;
    boolean inTree = g.inTree();
    if (inTree && g.rankedAs(now, partial, counts)) {
      return;
    }
    // an order blind to the schedule keeps the group where it is; its blocks' count in their round still changes
    boolean moves = !inTree || policy.ranksBySchedule();
    VictimTree<VictimGroup> tree = treeOf(g);
    RoundKey wasCounted = inTree && g.counted() ? roundOf(g) : null;
    if (inTree && moves) {
      tree.remove(g);
    }
    RoundKey nowCounted = counts ? new RoundKey(shuffle, now.round()) : null;
    if (!Objects.equals(wasCounted, nowCounted)) {
      if (wasCounted != null) {
        uncount(wasCounted, g.blockCount());
      }
      if (nowCounted != null) {
        count(nowCounted, g.blockCount());
      }
    }
    g.rank(now, partial, counts);
    if (moves) {
      tree.add(g);
      groupsRanked++;
    }
  }

  private void rankGroupOf(StoredBlock b) {
    VictimGroup g = b.group();
    if (g != null) {
      rank(g);
    }
  }

  /**
   * Takes a block out of its group, if it is in one; an emptied group leaves its tree and is forgotten. Returns the
   * round the block counted in, or null; it still counts there unless {@code uncount}.
   */
  private RoundKey leaveGroup(StoredBlock b, boolean uncount) {
    VictimGroup g = b.group();
    if (g == null) {
      return null;
    }
    RoundKey counted = g.counted() ? roundOf(g) : null;
    if (counted != null && uncount) {
      uncount(counted, 1);
    }
    if (g.blockCount() == 1) {
      // out of its tree before its block leaves it: a group of one block sorts as its block
      treeOf(g).remove(g);
      g.leftTree();
      g.remove(b);
      if (byReduce) {
        g.shuffleBlocks().removeGroup(g);
      }
    } else {
      g.remove(b);
    }
    return counted;
  }

  private VictimTree<VictimGroup> treeOf(VictimGroup g) {
    return g.where() == VictimGroup.IN_MEMORY ? inMemory : spilledUnread;
  }

  /** The round a group's blocks were ranked in; null if their shuffle was not placed then. */
  private static RoundKey roundOf(VictimGroup g) {
    return g.scheduled() ? new RoundKey(g.shuffle(), g.round()) : null;
  }

  /** Whether a round is kept only in part: here (a block of it spilled, unread) or somewhere in the cluster. */
  private boolean partial(ShuffleKey shuffle, int round) {
    return spilledUnreadInRound.containsKey(new RoundKey(shuffle, round)) || rounds.incompleteInCluster(shuffle, round);
  }

  private void count(RoundKey k, int blocks) {
    if (blocks > 0 && spilledUnreadInRound.merge(k, blocks, Integer::sum) == blocks) {
      turned.add(k);
    }
  }

  private void uncount(RoundKey k, int blocks) {
    Integer n = spilledUnreadInRound.get(k);
    if (n == null || blocks == 0) {
      return;
    }
    if (n <= blocks) {
      spilledUnreadInRound.remove(k);
      turned.add(k);
    } else {
      spilledUnreadInRound.put(k, n - blocks);
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
