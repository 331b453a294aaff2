package org.scache.master.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.scache.master.predict.ReducePrediction;

class ContiguousRangeSchedulerTest {
  private static final List<String> HOSTS = List.of("h0", "h1", "h2");
  private final ContiguousRangeScheduler scheduler = new ContiguousRangeScheduler();

  private static List<ReducePrediction> equal(int n, double size) {
    List<ReducePrediction> list = new ArrayList<>();
    for (int r = 0; r < n; r++) {
      list.add(ReducePrediction.withoutHost(r, size));
    }
    return list;
  }

  /** The hosts of reduces 0..n-1, in order. */
  private static List<String> hostsInOrder(HostPlacement p) {
    return p.reduceIds().stream().map(p::hostOf).toList();
  }

  @Test
  void equalReduces_areCutIntoOneRunOfConsecutiveReducesPerHost_ofEqualBytes() {
    HostPlacement p = scheduler.schedule(4, HOSTS, equal(12, 10));
    assertEquals(List.of("h0", "h0", "h0", "h0", "h1", "h1", "h1", "h1", "h2", "h2", "h2", "h2"), hostsInOrder(p));
    assertEquals(40, p.maxLoad(), 1e-9);
    assertEquals(List.of(4, 5, 6, 7), p.reducesOn("h1"));
    assertEquals(1, p.roundOf(5, 1), "a run's reduces run in id order, one round after the other");
  }

  @Test
  void runsAreCutByPredictedBytes_notByCount() {
    List<ReducePrediction> sizes = new ArrayList<>(equal(9, 10));
    sizes.set(0, ReducePrediction.withoutHost(0, 60));
    HostPlacement p = scheduler.schedule(1, HOSTS, sizes);
    assertEquals(List.of(0), p.reducesOn(hostsInOrder(p).get(0)), "the one large reduce is a run of its own");
    double largest = 60;
    assertTrue(p.maxLoad() - p.loads().values().stream().mapToDouble(Double::doubleValue).min().orElseThrow()
        <= largest, "the runs' bytes differ by at most one reduce's");
    for (String host : HOSTS) {
      List<Integer> run = p.reducesOn(host);
      assertEquals(run.size() - 1, run.get(run.size() - 1) - run.get(0), "the reduces of " + host + " are consecutive");
    }
  }

  @Test
  void runs_goWhereTheMostOfTheirInputIsHeld() {
    List<ReducePrediction> sizes = new ArrayList<>();
    String[] holders = {"h2", "h2", "h2", "h0", "h0", "h0", "h1", "h1", "h1"};
    for (int r = 0; r < 9; r++) {
      sizes.add(ReducePrediction.onHost(r, 10, 0.8, holders[r]));
    }
    sizes.set(3, ReducePrediction.onHost(3, 10, 0.9, "h2"));
    HostPlacement p = scheduler.schedule(3, HOSTS, sizes);
    assertEquals(List.of("h2", "h2", "h2", "h0", "h0", "h0", "h1", "h1", "h1"), hostsInOrder(p),
        "run 1 holds 9 bytes on h2 and 16 on h0: it takes h0, since run 0 holds 24 on h2");
  }

  @Test
  void withoutPredictedBytes_runsAreCutByCount_andFewerReducesThanHostsLeaveHostsEmpty() {
    assertEquals(List.of("h0", "h0", "h1", "h1", "h2", "h2"), hostsInOrder(scheduler.schedule(1, HOSTS, equal(6, 0))));
    HostPlacement two = scheduler.schedule(1, HOSTS, equal(2, 5));
    assertEquals(2, two.reduceCount());
    assertEquals(5, two.maxLoad(), 1e-9);
  }

  @Test
  void badInputs_areRefused() {
    assertThrows(IllegalArgumentException.class, () -> scheduler.schedule(0, HOSTS, equal(3, 1)));
    assertThrows(IllegalArgumentException.class, () -> scheduler.schedule(1, List.of(), equal(3, 1)));
    assertThrows(IllegalArgumentException.class, () -> scheduler.schedule(1, List.of("h0", "h0"), equal(3, 1)));
  }
}
