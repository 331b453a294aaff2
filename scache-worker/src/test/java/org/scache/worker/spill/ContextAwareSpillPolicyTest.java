package org.scache.worker.spill;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.scache.common.BlockId;

class ContextAwareSpillPolicyTest {
  private static SpillCandidate placed(String name, int shuffle, long submitted, int round, int reduce,
      boolean incomplete) {
    return SpillCandidate.of(new BlockId("app", shuffle, 0, 0, reduce), 100, false, false, name.hashCode(), true,
        submitted, round, incomplete);
  }

  private static List<BlockId> order(SpillPolicy policy, List<SpillCandidate> candidates) {
    List<SpillCandidate> shuffled = new ArrayList<>(candidates);
    Collections.shuffle(shuffled, new Random(7));
    shuffled.sort(policy.victimOrder());
    return shuffled.stream().map(SpillCandidate::id).toList();
  }

  @Test
  void victimOrder_isConsumedThenCopiesThenIncompleteRoundsThenUnplacedThenLaterShufflesThenLargerIds() {
    SpillCandidate earlyRound0 = placed("a", 0, 1000, 0, 0, false);
    SpillCandidate earlyRound1 = placed("b", 0, 1000, 1, 2, false);
    SpillCandidate earlyRound1Larger = placed("c", 0, 1000, 1, 3, false);
    SpillCandidate laterRound0 = placed("d", 1, 2000, 0, 0, false);
    SpillCandidate incompleteEarly = placed("e", 0, 1000, 0, 1, true);
    SpillCandidate unplaced = SpillCandidate.unscheduled(new BlockId("app", 2, 0, 0, 0), 100, false, false, 0);
    SpillCandidate copy = SpillCandidate.of(new BlockId("app", 0, 1, 0, 0), 100, true, false, 0, true, 1000, 0,
        false);
    SpillCandidate consumed = SpillCandidate.of(new BlockId("app", 0, 2, 0, 0), 100, false, true, 0, true, 1000, 0,
        false);
    List<BlockId> got = order(SpillPolicy.contextAware(), List.of(earlyRound0, earlyRound1, earlyRound1Larger,
        laterRound0, incompleteEarly, unplaced, copy, consumed));
    assertEquals(List.of(consumed.id(), copy.id(), incompleteEarly.id(), unplaced.id(), laterRound0.id(),
        earlyRound1Larger.id(), earlyRound1.id(), earlyRound0.id()), got);
  }

  /**
   * Among one reduce's blocks alike before their arrival (what the worker's groups of the order hold), the block that
   * came later leaves first whatever its map and attempt; blocks that came together sort by map and attempt.
   */
  @Test
  void aReducesBlocksAlike_leaveTheLatestToComeFirst_thenTheLargerMapAndAttempt() {
    SpillPolicy policy = SpillPolicy.contextAware();
    Random random = new Random(3);
    for (int i = 0; i < 10_000; i++) {
      boolean copy = random.nextBoolean();
      boolean consumed = random.nextBoolean();
      long arrivalA = random.nextInt(4);
      long arrivalB = random.nextInt(4);
      SpillCandidate a = SpillCandidate.of(new BlockId("app", 1, random.nextInt(5), random.nextInt(3), 7), 100, copy,
          consumed, random.nextLong(), true, 1000, 2, false, arrivalA);
      SpillCandidate b = SpillCandidate.of(new BlockId("app", 1, random.nextInt(5), random.nextInt(3), 7), 9, copy,
          consumed, random.nextLong(), true, 1000, 2, false, arrivalB);
      int expected = arrivalA != arrivalB ? Long.compare(arrivalB, arrivalA)
          : a.mapId() != b.mapId() ? Integer.compare(b.mapId(), a.mapId()) : Integer.compare(b.attempt(), a.attempt());
      assertEquals(Integer.signum(expected), Integer.signum(policy.victimOrder().compare(a, b)), a + " against " + b);
    }
  }

  @Test
  void lru_ordersByLastUseOnly() {
    SpillCandidate old = SpillCandidate.of(new BlockId("app", 0, 0, 0, 0), 1, false, false, 10, true, 5, 9, false);
    SpillCandidate recent = SpillCandidate.of(new BlockId("app", 1, 0, 0, 0), 1, false, true, 20, true, 1, 0, true);
    assertEquals(List.of(old.id(), recent.id()), order(SpillPolicy.lru(), List.of(recent, old)));
  }

  @Test
  void named_findsBothPolicies() {
    assertEquals("context-aware", SpillPolicy.named("Context-Aware").name());
    assertEquals("lru", SpillPolicy.named("lru").name());
  }

  /** The paper's order as a chain of comparators: the specification the written-out order must equal. */
  private static final java.util.Comparator<SpillCandidate> AS_SPECIFIED = java.util.Comparator
      .comparing((SpillCandidate c) -> !c.consumed())
      .thenComparing(c -> !c.copy())
      .thenComparing(c -> !c.roundIncomplete())
      .thenComparing(SpillCandidate::scheduled)
      .thenComparing(java.util.Comparator.comparingLong(SpillCandidate::submissionTimeMillis).reversed())
      .thenComparing(c -> c.id().appId(), java.util.Comparator.reverseOrder())
      .thenComparing(java.util.Comparator.comparingInt((SpillCandidate c) -> c.id().shuffleId()).reversed())
      .thenComparing(java.util.Comparator.comparingInt(SpillCandidate::round).reversed())
      .thenComparing(java.util.Comparator.comparingInt((SpillCandidate c) -> c.id().reduceId()).reversed())
      .thenComparing(java.util.Comparator.comparingInt((SpillCandidate c) -> c.id().mapId()).reversed())
      .thenComparing(java.util.Comparator.comparingInt((SpillCandidate c) -> c.id().attempt()).reversed());

  @Test
  void theWrittenOutOrder_agreesWithTheSpecifiedChain_onEveryPair() {
    Random random = new Random(11);
    List<SpillCandidate> candidates = new ArrayList<>();
    for (int i = 0; i < 400; i++) {
      BlockId id = new BlockId(random.nextBoolean() ? "app-a" : new String("app-b"), random.nextInt(3),
          random.nextInt(4), random.nextInt(2), random.nextInt(4));
      candidates.add(SpillCandidate.of(id, 100, random.nextInt(4) == 0, random.nextInt(4) == 0, random.nextLong(),
          random.nextBoolean(), 1000L * random.nextInt(3), random.nextInt(3), random.nextInt(3) == 0));
    }
    java.util.Comparator<SpillCandidate> written = SpillPolicy.contextAware().victimOrder();
    for (SpillCandidate a : candidates) {
      for (SpillCandidate b : candidates) {
        assertEquals(Integer.signum(AS_SPECIFIED.compare(a, b)), Integer.signum(written.compare(a, b)), a + " vs " + b);
      }
    }
  }
}
