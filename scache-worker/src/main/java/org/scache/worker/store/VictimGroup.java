package org.scache.worker.store;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.scache.common.BlockId;
import org.scache.common.ShuffleKey;
import org.scache.worker.spill.SpillCandidate;

/**
 * Blocks that sort together in the {@link BlockOrder}, and what the order saw of them when it last ranked them.
 *
 * <p>Under a policy that ranks blocks by their reduce first ({@link org.scache.worker.spill.SpillPolicy#ranksByReduce})
 * a group is the blocks of one reduce of a shuffle that are alike where the policy looks before their map: prefetched
 * copies or not, read by a reducer or not, in memory or spilled. Its rank is its reduce's: the reduce's place in the
 * schedule and whether its round is kept in part. A placement learnt, or a round that turns, moves the reduce's few
 * groups, not each of its blocks. A group holds at most one block of each map attempt ({@link MapBlocks}), so it
 * keeps its blocks as a set of the map attempts' places ({@link MapBlocks#ordinal()}), a bit each, and they sort as
 * they came, the latest first ({@link SpillCandidate#arrival()}, the policy's order within a reduce). The group
 * answers as a {@link SpillCandidate} that came last of all (and of map and attempt {@link Integer#MAX_VALUE}): under
 * the policy's order it sorts before each of its own blocks and after every block that leaves before them.
 *
 * <p>Under any other policy (least recently used) a group is one block, and answers as that block.
 */
final class VictimGroup extends VictimTree.Node<VictimGroup> implements SpillCandidate {
  /** Its blocks are in memory: the order's victims. */
  static final int IN_MEMORY = 0;
  /** Its blocks are spilled and no reducer read them: the order's blocks to load back. */
  static final int SPILLED_UNREAD = 1;

  private static final byte COPY = 1;
  private static final byte CONSUMED = 2;
  private static final byte SPILLED = 4;
  private static final byte SCHEDULED = 8;
  private static final byte ROUND_INCOMPLETE = 16;
  /** Its blocks count in their round's spilled unread blocks ({@link BlockOrder}). */
  private static final byte COUNTED = 32;
  /** It is in its tree of the order, ranked. */
  private static final byte IN_TREE = 64;

  private final ShuffleBlocks shuffle;
  private final int reduceId;
  /** A group of one block: its block's map attempt and slot, whose map, attempt and last use it answers; else null. */
  private final MapBlocks singleBlocks;
  private final int singleSlot;
  /** A reduce's group: the places of the map attempts whose block of the reduce is in it. */
  private final BitSet members;
  private int blockCount;
  private byte flags;
  private PlacementBook.Placement placement;

  private VictimGroup(ShuffleBlocks shuffle, int reduceId, boolean copy, boolean consumed, int where,
      StoredBlock single) {
    this.shuffle = shuffle;
    this.reduceId = reduceId;
    this.singleBlocks = single == null ? null : single.blocks();
    this.singleSlot = single == null ? -1 : single.slot();
    this.members = single == null ? new BitSet() : null;
    this.flags = (byte) ((copy ? COPY : 0) | (consumed ? CONSUMED : 0) | (where == SPILLED_UNREAD ? SPILLED : 0));
  }

  /** An empty group of a reduce's blocks that are alike in these. */
  static VictimGroup ofReduce(ShuffleBlocks shuffle, int reduceId, boolean copy, boolean consumed, int where) {
    return new VictimGroup(shuffle, reduceId, copy, consumed, where, null);
  }

  /** A group of one block, {@code b}, not yet in it. */
  static VictimGroup ofBlock(StoredBlock b, int where) {
    return new VictimGroup(b.blocks().shuffle(), b.reduceId(), b.isCopy(), b.readByReducer(), where, b);
  }

  /** How many keys a reduce's groups may have: its blocks alike in each of COPY, CONSUMED and SPILLED or not. */
  static final int KEYS_PER_REDUCE = 8;

  /** The least key of a reduce's groups; they are the {@link #KEYS_PER_REDUCE} from it. */
  static long firstKey(int reduceId) {
    return (long) reduceId * KEYS_PER_REDUCE;
  }

  /** The key of a reduce's group among its shuffle's: its reduce, and how its blocks are alike. */
  static long key(int reduceId, boolean copy, boolean consumed, int where) {
    int alike = (copy ? COPY : 0) | (consumed ? CONSUMED : 0) | (where == SPILLED_UNREAD ? SPILLED : 0);
    return firstKey(reduceId) + alike;
  }

  long key() {
    return key(reduceId, copy(), consumed(), where());
  }

  /** {@link #IN_MEMORY} or {@link #SPILLED_UNREAD}. */
  int where() {
    return (flags & SPILLED) != 0 ? SPILLED_UNREAD : IN_MEMORY;
  }

  ShuffleKey shuffle() {
    return shuffle.key();
  }

  ShuffleBlocks shuffleBlocks() {
    return shuffle;
  }

  /** Puts a block of its reduce, alike, in it (it tells the block). */
  void add(StoredBlock b) {
    if (singleBlocks == null) {
      members.set(b.blocks().ordinal());
    }
    blockCount++;
    b.group(this);
  }

  /** Takes one of its blocks out (it tells the block). */
  void remove(StoredBlock b) {
    if (singleBlocks == null) {
      members.clear(b.blocks().ordinal());
    }
    blockCount--;
    b.group(null);
  }

  int blockCount() {
    return blockCount;
  }

  /** Its block that leaves first: the one that came last. */
  StoredBlock first() {
    return singleBlocks != null ? single() : block(members.length() - 1);
  }

  /** Its block that leaves last (and loads back first): the one that came first. */
  StoredBlock last() {
    return singleBlocks != null ? single() : block(members.nextSetBit(0));
  }

  /** Its block that leaves next after a block that came at {@code arrival}, or null. */
  StoredBlock after(long arrival) {
    if (singleBlocks != null || arrival <= 0) {
      return null;
    }
    int at = members.previousSetBit((int) Math.min(arrival - 1, Integer.MAX_VALUE - 1));
    return at < 0 ? null : block(at);
  }

  /** Its blocks, first to leave first. */
  List<StoredBlock> inOrder() {
    if (singleBlocks != null) {
      return List.of(single());
    }
    List<StoredBlock> out = new ArrayList<>(blockCount);
    for (int at = members.length() - 1; at >= 0; at = members.previousSetBit(at - 1)) {
      out.add(block(at));
    }
    return out;
  }

  private StoredBlock single() {
    return new StoredBlock(singleBlocks, singleSlot);
  }

  private StoredBlock block(int ordinal) {
    MapBlocks m = shuffle.mapAttempt(ordinal);
    return new StoredBlock(m, m.heldSlotOf(reduceId));
  }

  /** Whether it is one block's group (then it goes when the block leaves it). */
  boolean ofOneBlock() {
    return singleBlocks != null;
  }
  /** Whether it ranks as it would now: placed at {@code now} (null if not), its round kept in part or not. */
  boolean rankedAs(PlacementBook.Placement now, boolean roundIncomplete, boolean counted) {
    return java.util.Objects.equals(placement, now) && roundIncomplete() == roundIncomplete && counted() == counted;
  }

  /** Ranks it as it goes in its tree: its reduce placed at {@code now} (null while not), its round kept in part. */
  void rank(PlacementBook.Placement now, boolean roundIncomplete, boolean counted) {
    placement = now;
    flags = (byte) ((flags & (COPY | CONSUMED | SPILLED)) | (now != null ? SCHEDULED : 0)
        | (roundIncomplete ? ROUND_INCOMPLETE : 0) | (counted ? COUNTED : 0) | IN_TREE);
  }

  /** Whether it is in its tree of the order. */
  boolean inTree() {
    return (flags & IN_TREE) != 0;
  }

  /** It left its tree, with its last block: it counts nothing any more. */
  void leftTree() {
    flags = (byte) (flags & (COPY | CONSUMED | SPILLED));
  }

  /** Whether its blocks count in their round's spilled unread blocks, as last ranked. */
  boolean counted() {
    return (flags & COUNTED) != 0;
  }

  @Override
  public BlockId id() {
    return new BlockId(appId(), shuffleId(), mapId(), attempt(), reduceId);
  }

  @Override
  public String appId() {
    return shuffle.key().appId();
  }

  @Override
  public int shuffleId() {
    return shuffle.key().shuffleId();
  }

  @Override
  public int mapId() {
    return singleBlocks != null ? singleBlocks.mapId() : Integer.MAX_VALUE;
  }

  @Override
  public int attempt() {
    return singleBlocks != null ? singleBlocks.attempt() : Integer.MAX_VALUE;
  }

  @Override
  public int reduceId() {
    return reduceId;
  }

  /** A group of one block came when its block did; a reduce's group sorts before every block of its own. */
  @Override
  public long arrival() {
    return singleBlocks != null ? singleBlocks.ordinal() : Long.MAX_VALUE;
  }

  @Override
  public long size() {
    return singleBlocks != null ? singleBlocks.size(singleSlot) : 0;
  }

  @Override
  public boolean copy() {
    return (flags & COPY) != 0;
  }

  @Override
  public boolean consumed() {
    return (flags & CONSUMED) != 0;
  }

  @Override
  public long lastAccessNanos() {
    return singleBlocks != null ? singleBlocks.lastUse(singleSlot) : 0;
  }

  @Override
  public boolean scheduled() {
    return placement != null;
  }

  @Override
  public long submissionTimeMillis() {
    return placement == null ? 0 : placement.submissionTimeMillis();
  }

  @Override
  public int round() {
    return placement == null ? 0 : placement.round();
  }

  @Override
  public boolean roundIncomplete() {
    return (flags & ROUND_INCOMPLETE) != 0;
  }

  @Override
  public String toString() {
    String kind = (copy() ? ", copies" : "") + (consumed() ? ", read" : "")
        + (where() == SPILLED_UNREAD ? ", spilled" : "");
    return shuffle.key() + "/reduce_" + reduceId + (singleBlocks != null ? " " + single() : "") + " (" + blockCount
        + " blocks" + kind + ")";
  }
}
