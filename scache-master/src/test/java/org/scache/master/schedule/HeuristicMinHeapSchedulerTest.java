package org.scache.master.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.scache.master.predict.ReducePrediction;

class HeuristicMinHeapSchedulerTest {
  private static final double EPS = 1e-9;
  private final HeuristicMinHeapScheduler scheduler = new HeuristicMinHeapScheduler();

  private static ReducePrediction plain(int id, double size) {
    return ReducePrediction.withoutHost(id, size);
  }

  private static ReducePrediction local(int id, double size, double prob, String host) {
    return ReducePrediction.onHost(id, size, prob, host);
  }

  @Test
  void schedule_oneHost_assignsEverythingToIt() {
    HostPlacement result =
        scheduler.schedule(4, List.of("a"), List.of(plain(0, 3), local(1, 5, 1.0, "elsewhere"), plain(2, 0)));
    assertEquals(Map.of(0, "a", 1, "a", 2, "a"), result.assignment());
    assertEquals(8, result.loadOf("a"), EPS);
  }

  @Test
  void schedule_moreHostsThanReduces_largestReducesTakeFirstHosts() {
    HostPlacement result = scheduler.schedule(1, List.of("h0", "h1", "h2", "h3"), List.of(plain(0, 1), plain(1, 3)));
    assertEquals("h0", result.hostOf(1));
    assertEquals("h1", result.hostOf(0));
    assertEquals(List.of(), result.reducesOn("h2"));
    assertEquals(0, result.loadOf("h3"), EPS);
  }

  @Test
  void schedule_emptyReduces_areSpreadNotPiledOnFirstHost() {
    List<ReducePrediction> reduces = List.of(plain(0, 0), plain(1, 0), plain(2, 0), plain(3, 0), plain(4, 0), plain(5,
        0));
    HostPlacement result = scheduler.schedule(3, List.of("a", "b", "c"), reduces);
    assertEquals(List.of(0, 3), result.reducesOn("a"));
    assertEquals(List.of(1, 4), result.reducesOn("b"));
    assertEquals(List.of(2, 5), result.reducesOn("c"));
  }

  @Test
  void schedule_equalSizes_lowerReduceIdFirstAndHostOrderBreaksTies() {
    List<ReducePrediction> reduces = List.of(plain(3, 2), plain(1, 2), plain(0, 2), plain(2, 2));
    HostPlacement result = scheduler.schedule(2, List.of("b", "a"), reduces);
    assertEquals(Map.of(0, "b", 1, "a", 2, "b", 3, "a"), result.assignment());
  }

  @Test
  void schedule_handCheckedLpt_placesLargestOnLeastLoaded() {
    // LPT: 5→a, 4→b, 3(id 2)→b (7), 3(id 3)→a (8), 2→b (9)
    List<ReducePrediction> reduces = List.of(plain(0, 5), plain(1, 4), plain(2, 3), plain(3, 3), plain(4, 2));
    HostPlacement result = scheduler.schedule(2, List.of("a", "b"), reduces);
    assertEquals(List.of(0, 3), result.reducesOn("a"));
    assertEquals(List.of(1, 2, 4), result.reducesOn("b"));
    assertEquals(9, result.maxLoad(), EPS);
  }

  @Test
  void schedule_localityWithinBound_movesReduceAloneToPreferredHost() {
    // LPT: 0→a, 1→b, 2 (tie on load and count) → a; 2 prefers b: b + 1 = 6 ≤ 1.1 × 6
    List<ReducePrediction> reduces = List.of(plain(0, 5), plain(1, 5), local(2, 1, 1.0, "b"));
    MinHeapSchedule schedule = scheduler.scheduleDetailed(2, List.of("a", "b"), reduces);
    assertEquals("a", schedule.beforeSwap().hostOf(2));
    assertEquals("b", schedule.result().hostOf(2));
    assertEquals(1, schedule.swaps().size());
    LocalitySwap swap = schedule.swaps().get(0);
    assertEquals(2, swap.reduceId());
    assertEquals("a", swap.fromHost());
    assertEquals("b", swap.toHost());
    assertEquals(OptionalInt.empty(), swap.returnedReduceId());
    assertEquals(6.6, swap.upperBound(), EPS);
    assertEquals(5, schedule.result().loadOf("a"), EPS);
    assertEquals(6, schedule.result().loadOf("b"), EPS);
  }

  @Test
  void schedule_moveAloneTooHeavy_swapsWithBestBalancingReduce() {
    // LPT: 0(8)→a, 1(7)→b, 2(3)→b, 3(2)→a; max 10, upper 11. Moving 1 alone makes a = 17;
    // exchanging it for 0 gives a = 9, b = 11; exchanging it for 3 gives a = 15.
    List<ReducePrediction> reduces = List.of(plain(0, 8), local(1, 7, 1.0, "a"), plain(2, 3), plain(3, 2));
    MinHeapSchedule schedule = scheduler.scheduleDetailed(10, List.of("a", "b"), reduces);
    assertEquals(List.of(1, 3), schedule.result().reducesOn("a"));
    assertEquals(List.of(0, 2), schedule.result().reducesOn("b"));
    assertEquals(OptionalInt.of(0), schedule.swaps().get(0).returnedReduceId());
    assertEquals(11, schedule.swaps().get(0).upperBound(), EPS);
  }

  @Test
  void schedule_partnerSitsOnItsOwnPreferredHost_isNeverDisplaced() {
    List<ReducePrediction> reduces = List.of(local(0, 5, 1.0, "a"), local(1, 5, 1.0, "a"));
    MinHeapSchedule schedule = scheduler.scheduleDetailed(2, List.of("a", "b"), reduces);
    assertEquals("a", schedule.result().hostOf(0));
    assertEquals("b", schedule.result().hostOf(1));
    assertEquals(List.of(), schedule.swaps());
  }

  @Test
  void schedule_swapImpossibleWithinBound_leavesLptPlacement() {
    // 1 prefers a but a (10) + 6 > 11 and exchanging with 0 makes b 14 > 11
    List<ReducePrediction> reduces = List.of(plain(0, 10), local(1, 6, 1.0, "a"), plain(2, 4));
    MinHeapSchedule schedule = scheduler.scheduleDetailed(10, List.of("a", "b"), reduces);
    assertEquals(schedule.beforeSwap().assignment(), schedule.result().assignment());
    assertTrue(schedule.swaps().isEmpty());
  }

  @Test
  void schedule_uniformShare_allowsNoGrowthBeyondMax_fullShareAllowsTenPercent() {
    // LPT: a = {0(10)}, b = {1(9), 2(1)}, max 10; moving 2 to a makes a 11
    List<ReducePrediction> uniform = List.of(plain(0, 10), plain(1, 9), local(2, 1, 0.25, "a"));
    assertEquals("b", scheduler.schedule(4, List.of("a", "b"), uniform).hostOf(2));
    List<ReducePrediction> full = List.of(plain(0, 10), plain(1, 9), local(2, 1, 1.0, "a"));
    assertEquals("a", scheduler.schedule(4, List.of("a", "b"), full).hostOf(2));
  }

  @Test
  void norm_followsPaperFormulaAndClamps() {
    assertEquals(0.1, HeuristicMinHeapScheduler.norm(1.0, 10), EPS);
    assertEquals(0.0, HeuristicMinHeapScheduler.norm(0.1, 10), EPS);
    assertEquals((0.55 - 0.1) / 0.9 / 10, HeuristicMinHeapScheduler.norm(0.55, 10), EPS);
    assertEquals(0.0, HeuristicMinHeapScheduler.norm(0.01, 10), EPS);
  }

  @Test
  void norm_singleMap_isFullSlack() {
    assertEquals(0.1, HeuristicMinHeapScheduler.norm(1.0, 1), EPS);
    assertEquals(0.1, HeuristicMinHeapScheduler.norm(0.0, 1), EPS);
  }

  @Test
  void schedule_singleMapAllDataLocal_usesTenPercentSlack() {
    // a = {0(10)}, b = {1(9), 2(1)}; 2's data is all on a: a + 1 = 11 ≤ 1.1 × 10
    List<ReducePrediction> reduces = List.of(plain(0, 10), plain(1, 9), local(2, 1, 1.0, "a"));
    HostPlacement result = scheduler.schedule(1, List.of("a", "b"), reduces);
    assertEquals("a", result.hostOf(2));
  }

  @Test
  void schedule_withoutLocalitySwap_isPlainLpt() {
    List<ReducePrediction> reduces = List.of(plain(0, 5), plain(1, 5), local(2, 1, 1.0, "b"));
    HostPlacement result = new HeuristicMinHeapScheduler(false).schedule(2, List.of("a", "b"), reduces);
    assertEquals("a", result.hostOf(2));
  }

  @Test
  void schedule_sameInputTwice_sameResult() {
    List<ReducePrediction> reduces = List.of(plain(0, 8), local(1, 7, 1.0, "a"), plain(2, 3), plain(3, 2));
    assertEquals(
        scheduler.schedule(3, List.of("a", "b"), reduces).assignment(),
        scheduler.schedule(3, List.of("a", "b"), reduces).assignment());
  }

  @Test
  void schedule_invalidInputs_throwWithMessage() {
    assertEquals(
        "reduce 1 is given twice",
        assertThrows(
                IllegalArgumentException.class,
                () -> scheduler.schedule(1, List.of("a"), List.of(plain(1, 1), plain(1, 2))))
            .getMessage());
    assertEquals(
        "host a is given twice",
        assertThrows(IllegalArgumentException.class, () -> scheduler.schedule(1, List.of("a", "a"), List.of()))
            .getMessage());
    assertThrows(IllegalArgumentException.class, () -> scheduler.schedule(1, List.of(), List.of()));
    assertThrows(IllegalArgumentException.class, () -> scheduler.schedule(0, List.of("a"), List.of()));
  }

  @Test
  void schedule_noReduces_returnsEmptyPlacement() {
    HostPlacement result = scheduler.schedule(1, List.of("a", "b"), List.of());
    assertEquals(0, result.reduceCount());
    assertEquals(0, result.maxLoad(), EPS);
  }
}
