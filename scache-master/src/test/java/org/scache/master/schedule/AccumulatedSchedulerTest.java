package org.scache.master.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.scache.master.predict.ReducePrediction;

class AccumulatedSchedulerTest {
  private static final double EPS = 1e-9;
  private static final List<String> HOSTS = List.of("a", "b");

  private static ReducePrediction plain(int id, double size) {
    return ReducePrediction.withoutHost(id, size);
  }

  @Test
  void schedule_firstShuffle_noReshufflesAndStateRecorded() {
    AccumulatedScheduler scheduler = new AccumulatedScheduler();
    AccumulatedSchedule first = scheduler.schedule(2, HOSTS, List.of(plain(0, 10), plain(1, 1)));
    assertEquals(List.of(), first.reshuffles());
    assertEquals(
        Map.of(0, new AccumulatedReduce(10, "a"), 1, new AccumulatedReduce(1, "b")), scheduler.accumulated());
    assertEquals(Optional.empty(), scheduler.accumulated(7));
  }

  @Test
  void accumulate_addsSizes_previousHostWinsWhenItsShareIsLarger() {
    ReducePrediction merged =
        AccumulatedScheduler.accumulate(ReducePrediction.onHost(3, 30, 0.9, "b"), new AccumulatedReduce(70, "a"));
    // new shuffle's share on b is 0.9 × 30 / 100 = 0.27 < 0.7 held on a
    assertEquals(ReducePrediction.onHost(3, 100, 0.7, "a"), merged);
  }

  @Test
  void accumulate_newShuffleShareLarger_keepsNewHostWithRescaledProb() {
    ReducePrediction merged =
        AccumulatedScheduler.accumulate(ReducePrediction.onHost(3, 90, 0.9, "b"), new AccumulatedReduce(10, "a"));
    assertEquals(3, merged.reduceId());
    assertEquals(100, merged.size(), EPS);
    assertEquals(0.81, merged.prob(), EPS);
    assertEquals(Optional.of("b"), merged.hostId());
  }

  @Test
  void accumulate_equalShares_previousHostWins() {
    ReducePrediction merged =
        AccumulatedScheduler.accumulate(ReducePrediction.onHost(1, 50, 1.0, "b"), new AccumulatedReduce(50, "a"));
    assertEquals(ReducePrediction.onHost(1, 100, 0.5, "a"), merged);
  }

  @Test
  void accumulate_sameHost_sharesAddUp() {
    ReducePrediction merged =
        AccumulatedScheduler.accumulate(ReducePrediction.onHost(1, 40, 0.5, "a"), new AccumulatedReduce(60, "a"));
    assertEquals(ReducePrediction.onHost(1, 100, 0.8, "a"), merged);
  }

  @Test
  void accumulate_newShuffleWithoutHost_previousHostPreferred() {
    ReducePrediction merged = AccumulatedScheduler.accumulate(plain(1, 100), new AccumulatedReduce(1, "b"));
    assertEquals(ReducePrediction.onHost(1, 101, 1.0 / 101, "b"), merged);
  }

  @Test
  void accumulate_bothEmpty_staysEmptyOnPreviousHost() {
    assertEquals(
        new ReducePrediction(1, 0, 0, Optional.of("a")),
        AccumulatedScheduler.accumulate(plain(1, 0), new AccumulatedReduce(0, "a")));
  }

  /**
   * Shuffle 1 puts reduce 0 (10) on a and reduce 1 (1) on b. Shuffle 2 adds 100 bytes to reduce 1
   * and a new reduce 2 of 50: LPT puts 1 (101) on a, 2 (50) and 0 (10) on b; reduce 1 cannot go
   * back to b within the bound (its earlier share is 1/101, norm 0), reduce 0 moves to a (prob 1,
   * bound 111.1). Reduce 1's 1 byte on b is re-shuffled to a.
   */
  @Test
  void schedule_secondShuffleMovesReduce_reportsReshuffleAndUpdatesState() {
    AccumulatedScheduler scheduler = new AccumulatedScheduler();
    scheduler.schedule(2, HOSTS, List.of(plain(0, 10), plain(1, 1)));
    AccumulatedSchedule second = scheduler.schedule(2, HOSTS, List.of(plain(0, 0), plain(1, 100), plain(2, 50)));
    assertEquals(List.of(new Reshuffle(1, "b", "a", 1)), second.reshuffles());
    assertEquals(Map.of(0, "a", 1, "a", 2, "b"), second.result().assignment());
    assertEquals(ReducePrediction.onHost(0, 10, 1.0, "a"), second.accumulatedReduces().get(0));
    assertEquals(
        Map.of(0, new AccumulatedReduce(10, "a"), 1, new AccumulatedReduce(101, "a"), 2, new AccumulatedReduce(50,
            "b")),
        scheduler.accumulated());

    AccumulatedSchedule third = scheduler.schedule(2, HOSTS, List.of(plain(0, 1), plain(1, 1), plain(2, 5)));
    assertEquals(11 + 102 + 55, third.accumulatedReduces().stream().mapToDouble(ReducePrediction::size).sum(), EPS);
    assertEquals(new AccumulatedReduce(102, third.result().hostOf(1)), scheduler.accumulated(1).orElseThrow());
    assertEquals(55, scheduler.accumulated(2).orElseThrow().size(), EPS);
  }

  @Test
  void schedule_heavyEarlierData_pinsReducesSoNoReshuffle() {
    AccumulatedScheduler scheduler = new AccumulatedScheduler();
    List<ReducePrediction> big = List.of(plain(0, 100), plain(1, 90), plain(2, 80), plain(3, 70));
    HostPlacement first = scheduler.schedule(4, HOSTS, big).result();
    List<ReducePrediction> small = List.of(plain(0, 1), plain(1, 9), plain(2, 2), plain(3, 8));
    AccumulatedSchedule second = scheduler.schedule(4, HOSTS, small);
    assertTrue(second.reshuffles().isEmpty(), () -> "unexpected " + second.reshuffles());
    assertEquals(first.assignment(), second.result().assignment());
  }
}
