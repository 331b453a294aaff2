package org.scache.worker.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.buffer.Unpooled;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.scache.common.BlockId;
import org.scache.common.ShuffleKey;
import org.scache.common.WorkerInfo;
import org.scache.common.shuffle.ReduceAssignment;
import org.scache.common.shuffle.ReduceMove;
import org.scache.common.shuffle.ShufflePlacement;
import org.scache.worker.spill.SpillCandidate;
import org.scache.worker.spill.SpillPolicy;
import org.scache.worker.spill.SpillStore;

class BlockOrderTest {
  private static final WorkerInfo HERE = new WorkerInfo("w", "localhost", 1);
  private static final SpillStore.Location ON_DISK = new SpillStore.Location(null, 0, 0, 0);

  /**
   * Random puts, spills, loads, reads, removals and placements: after each, the order kept as the
   * blocks changed is the order a full sort by the policy gives (the way victims were chosen before
   * the index), the block to load back first is the same, and so are the rounds kept in part.
   */
  @ParameterizedTest
  @ValueSource(strings = {"context-aware", "lru"})
  void theOrderKeptAsBlocksChange_isTheOrderAFullSortGives(String policyName) {
    SpillPolicy policy = SpillPolicy.named(policyName);
    PlacementBook rounds = new PlacementBook();
    BlockOrder order = new BlockOrder(policy, rounds);
    Random random = new Random(7);
    List<StoredBlock> held = new ArrayList<>();
    Set<BlockId> ids = new HashSet<>();
    long now = 0;
    for (int step = 0; step < 4000; step++) {
      int op = random.nextInt(10);
      if (op <= 2 || held.isEmpty()) {
        BlockId id = new BlockId("a", random.nextInt(3), random.nextInt(12), random.nextInt(2), random.nextInt(8));
        if (ids.add(id)) {
          int size = random.nextInt(5) == 0 ? 0 : 1 + random.nextInt(100);
          StoredBlock b = order.hold(ArrivingBlock.inMemory(id, Unpooled.buffer(size).writerIndex(size),
              random.nextInt(4) == 0, now++));
          held.add(b);
        }
      } else if (op == 3) {
        StoredBlock b = held.get(random.nextInt(held.size()));
        if (b.inMemory() && b.size() > 0 && !b.isCopy()) {
          b.spilledTo(ON_DISK);
          placeAndCheckTurn(order, b);
        }
      } else if (op == 4) {
        StoredBlock b = held.get(random.nextInt(held.size()));
        if (!b.inMemory()) {
          b.loaded(Unpooled.buffer((int) b.size()).writerIndex((int) b.size()));
          placeAndCheckTurn(order, b);
        }
      } else if (op == 5) {
        StoredBlock b = held.get(random.nextInt(held.size()));
        b.markConsumed();
        placeAndCheckTurn(order, b);
      } else if (op == 6) {
        StoredBlock b = held.get(random.nextInt(held.size()));
        order.used(b, now++);
      } else if (op == 7) {
        StoredBlock b = held.remove(random.nextInt(held.size()));
        ids.remove(b.id());
        order.remove(b);
        b.release();
      } else if (op == 8) {
        int shuffle = random.nextInt(3);
        int slots = 1 + random.nextInt(3);
        List<ReduceAssignment> list = new ArrayList<>();
        for (int r = 0; r < 8; r++) {
          list.add(new ReduceAssignment(r, HERE, r / slots, 100));
        }
        List<ReduceMove> moves = shuffle > 0 && random.nextBoolean()
            ? List.of(new ReduceMove(shuffle - 1, random.nextInt(8), HERE, HERE)) : List.of();
        rounds.scheduled(new ShufflePlacement("a", shuffle, "test", list), 1000L * shuffle, moves);
        order.placementChanged(new ShuffleKey("a", shuffle));
        moves.forEach(m -> order.placementChanged(new ShuffleKey("a", m.shuffleId())));
      } else {
        ShuffleKey shuffle = new ShuffleKey("a", random.nextInt(3));
        // only the blocks of the rounds whose state changed are placed again
        order.roundsTurnedInCluster(shuffle,
            rounds.incompleteInCluster(shuffle, random.nextBoolean() ? List.of(random.nextInt(4)) : List.of()));
      }
      Set<BlockOrder.RoundKey> keptInPart = keptInPart(held, rounds);
      assertEquals(keptInPart, order.keptInPart(), "rounds kept in part after step " + step);
      List<StoredBlock> sorted = sorted(held, rounds, policy, keptInPart);
      List<StoredBlock> victims = sorted.stream().filter(b -> b.inMemory() && b.size() > 0).toList();
      assertEquals(victims, order.victimsInOrder(), "victims after step " + step);
      assertEquals(victims, walkDown(order), "victims walked one after another after step " + step);
      List<StoredBlock> reloadable = sorted.stream().filter(b -> !b.inMemory() && !b.readByReducer()).toList();
      assertEquals(reloadable.isEmpty() ? Optional.empty() : Optional.of(reloadable.get(reloadable.size() - 1)),
          order.firstToLoadBack(), "first to load back after step " + step);
    }
  }

  /**
   * A shuffle of 100 maps x 4 reduces held, then placed: under the paper's policy the placement ranks again each
   * reduce's one group of blocks (4), not each block (400); under LRU, blind to the schedule, it moves none. The
   * paper's first victim is then a block of the later round, its largest reduce and map.
   */
  @ParameterizedTest
  @CsvSource({"context-aware, 4", "lru, 0"})
  void aPlacementLearnt_ranksEachReducesGroupAgain_notEachBlock_andNothingUnderLru(String policyName, long ranked) {
    PlacementBook rounds = new PlacementBook();
    BlockOrder order = new BlockOrder(SpillPolicy.named(policyName), rounds);
    for (int map = 0; map < 100; map++) {
      for (int reduce = 0; reduce < 4; reduce++) {
        order.hold(ArrivingBlock.inMemory(new BlockId("a", 0, map, 0, reduce), Unpooled.buffer(1).writerIndex(1),
            false, 0));
      }
    }
    List<ReduceAssignment> list = new ArrayList<>();
    for (int r = 0; r < 4; r++) {
      list.add(new ReduceAssignment(r, HERE, r / 2, 100));
    }
    rounds.scheduled(new ShufflePlacement("a", 0, "test", list), 1000L, List.of());
    long before = order.groupsRanked();

    order.placementChanged(new ShuffleKey("a", 0));

    assertEquals(ranked, order.groupsRanked() - before);
    if (policyName.equals("context-aware")) {
      assertEquals(new BlockId("a", 0, 99, 0, 3), order.firstVictim().orElseThrow().block().id());
    }
  }

  /** The victims as a spill finds them: the first, then each after the one before. */
  private static List<StoredBlock> walkDown(BlockOrder order) {
    List<StoredBlock> out = new ArrayList<>();
    for (Optional<BlockOrder.Victim> v = order.firstVictim(); v.isPresent(); v = order.victimAfter(v.get())) {
      out.add(v.get().block());
    }
    return out;
  }

  /** Places {@code b} and checks that it says a round turned exactly when the rounds kept in part changed. */
  private static void placeAndCheckTurn(BlockOrder order, StoredBlock b) {
    Set<BlockOrder.RoundKey> before = order.keptInPart();
    boolean turned = order.place(b);
    assertEquals(!before.equals(order.keptInPart()), turned, "a round turned placing " + b);
  }

  private static Set<BlockOrder.RoundKey> keptInPart(List<StoredBlock> held, PlacementBook rounds) {
    Set<BlockOrder.RoundKey> out = new HashSet<>();
    for (StoredBlock b : held) {
      if (!b.inMemory() && b.spilled().isPresent() && !b.readByReducer()) {
        rounds.placement(b.id().shuffle(), b.id().reduceId())
            .ifPresent(p -> out.add(new BlockOrder.RoundKey(b.id().shuffle(), p.round())));
      }
    }
    return out;
  }

  private static List<StoredBlock> sorted(List<StoredBlock> held, PlacementBook rounds, SpillPolicy policy,
      Set<BlockOrder.RoundKey> keptInPart) {
    List<Map.Entry<SpillCandidate, StoredBlock>> list = new ArrayList<>();
    for (StoredBlock b : held) {
      BlockId id = b.id();
      Optional<PlacementBook.Placement> p = rounds.placement(id.shuffle(), id.reduceId());
      SpillCandidate c = p.isEmpty()
          ? SpillCandidate.of(id, b.size(), b.isCopy(), b.readByReducer(), b.lastAccessNanos(), false, 0, 0, false,
              b.arrival())
          : SpillCandidate.of(id, b.size(), b.isCopy(), b.readByReducer(), b.lastAccessNanos(), true,
              p.get().submissionTimeMillis(), p.get().round(),
              keptInPart.contains(new BlockOrder.RoundKey(id.shuffle(), p.get().round()))
                  || rounds.incompleteInCluster(id.shuffle(), p.get().round()), b.arrival());
      list.add(new AbstractMap.SimpleImmutableEntry<>(c, b));
    }
    list.sort(Map.Entry.comparingByKey(policy.victimOrder()));
    return list.stream().map(Map.Entry::getValue).toList();
  }
}
