package org.scache.master.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.scache.master.predict.ReducePrediction;

/** Seeded random cases checking the invariants of Algorithm 1. */
class HeuristicMinHeapSchedulerPropertyTest {
  private static final int CASES = 3000;
  private final HeuristicMinHeapScheduler scheduler = new HeuristicMinHeapScheduler();

  private record Case(int maps, List<String> hosts, List<ReducePrediction> reduces) {}

  private static Case randomCase(SplittableRandom random, int maxHosts, int maxReduces) {
    int hostCount = 1 + random.nextInt(maxHosts);
    List<String> hosts = IntStream.range(0, hostCount).mapToObj(h -> "w" + h).toList();
    int n = random.nextInt(maxReduces + 1);
    List<Integer> ids = new ArrayList<>(IntStream.range(0, n).map(i -> i * (1
        + random.nextInt(3))).distinct().boxed().toList());
    Collections.shuffle(ids, new Random(random.nextLong()));
    List<ReducePrediction> reduces = new ArrayList<>();
    for (int id : ids) {
      double size =
          switch (random.nextInt(4)) {
            case 0 -> 0;
            case 1 -> random.nextInt(1, 10); // many ties
            case 2 -> 1000.0 / Math.pow(1 + random.nextInt(50), 1.1); // Zipf-like skew
            default -> random.nextDouble(0, 100);
          };
      int hostPick = random.nextInt(hostCount + 2);
      Optional<String> host =
          hostPick < hostCount ? Optional.of(hosts.get(hostPick)) : hostPick == hostCount ? Optional.of("gone")
              : Optional.empty();
      double prob = host.isPresent() ? random.nextDouble() : 0;
      reduces.add(new ReducePrediction(id, size, prob, host));
    }
    return new Case(1 + random.nextInt(30), hosts, reduces);
  }

  @Test
  void schedule_randomCases_everyReduceAssignedExactlyOnceAndLoadsAddUp() {
    SplittableRandom random = new SplittableRandom(1);
    for (int trial = 0; trial < CASES; trial++) {
      Case c = randomCase(random, 12, 80);
      MinHeapSchedule schedule = scheduler.scheduleDetailed(c.maps(), c.hosts(), c.reduces());
      for (HostPlacement result : List.of(schedule.beforeSwap(), schedule.result())) {
        Map<Integer, String> assignment = result.assignment();
        assertEquals(c.reduces().size(), assignment.size(), "trial " + trial);
        double total = 0;
        int placed = 0;
        for (ReducePrediction reduce : c.reduces()) {
          assertTrue(c.hosts().contains(assignment.get(reduce.reduceId())));
          total += reduce.size();
        }
        double loadSum = 0;
        for (String host : c.hosts()) {
          loadSum += result.loadOf(host);
          placed += result.reducesOn(host).size();
        }
        assertEquals(c.reduces().size(), placed, "trial " + trial);
        assertEquals(total, loadSum, 1e-9 * Math.max(1, total), "trial " + trial);
      }
    }
  }

  /**
   * Graham's argument: the last reduce {@code j} LPT put on the busiest host went to the least
   * loaded host, so {@code max ≤ (total − p_j) / H + p_j}; when {@code p_j ≤ LB / 3} this gives
   * {@code max ≤ 4/3 × LB} with {@code LB = max(total / H, largest)}.
   */
  @Test
  void schedule_randomCases_lptBeforeSwapWithinGrahamBoundAndFourThirdsOfLowerBound() {
    SplittableRandom random = new SplittableRandom(2);
    int fourThirdsChecked = 0;
    for (int trial = 0; trial < CASES; trial++) {
      Case c = randomCase(random, 12, 200);
      if (c.reduces().isEmpty()) {
        continue;
      }
      HostPlacement lpt = scheduler.scheduleDetailed(c.maps(), c.hosts(), c.reduces()).beforeSwap();
      double total = c.reduces().stream().mapToDouble(ReducePrediction::size).sum();
      double largest = c.reduces().stream().mapToDouble(ReducePrediction::size).max().orElse(0);
      int hosts = c.hosts().size();
      double lowerBound = Math.max(total / hosts, largest);
      String busiest = c.hosts().stream().max((x, y) -> Double.compare(lpt.loadOf(x), lpt.loadOf(y))).orElseThrow();
      double last = lpt.reducesOn(busiest).stream().mapToDouble(lpt::sizeOf).min().orElse(0);
      double max = lpt.maxLoad();
      double tolerance = 1e-9 * Math.max(1, total);
      assertTrue(max <= (total - last) / hosts + last + tolerance, "trial " + trial);
      if (last <= lowerBound / 3) {
        fourThirdsChecked++;
        assertTrue(max <= 4.0 / 3 * lowerBound + tolerance, "trial " + trial + ": " + max + " vs LB " + lowerBound);
      }
    }
    assertTrue(fourThirdsChecked > CASES / 3, "only " + fourThirdsChecked + " cases had p_j ≤ LB / 3");
  }

  @Test
  void schedule_smallRandomCases_lptWithinGrahamRatioOfBruteForceOptimum() {
    SplittableRandom random = new SplittableRandom(3);
    for (int trial = 0; trial < CASES; trial++) {
      Case c = randomCase(random, 3, 8);
      double[] sizes = c.reduces().stream().mapToDouble(ReducePrediction::size).toArray();
      int hosts = c.hosts().size();
      double optimum = bruteForceMakespan(sizes, new double[hosts], 0);
      double lpt = scheduler.scheduleDetailed(c.maps(), c.hosts(), c.reduces()).beforeSwap().maxLoad();
      assertTrue(
          lpt <= (4.0 / 3 - 1.0 / (3 * hosts)) * optimum + 1e-9,
          "trial " + trial + ": LPT " + lpt + " vs optimum " + optimum);
    }
  }

  /** LPT can exceed 4/3 of the simple lower bound: 4 unit reduces on 3 hosts, LB 4/3, optimum 2. */
  @Test
  void schedule_fourUnitReducesOnThreeHosts_exceedsFourThirdsOfSimpleLowerBoundButIsOptimal() {
    List<ReducePrediction> reduces = IntStream.range(0, 4).mapToObj(i -> ReducePrediction.withoutHost(i, 1)).toList();
    HostPlacement lpt = scheduler.schedule(1, List.of("a", "b", "c"), reduces);
    assertEquals(2.0, lpt.maxLoad());
    assertTrue(lpt.maxLoad() > 4.0 / 3 * (4.0 / 3));
  }

  private static double bruteForceMakespan(double[] sizes, double[] loads, int next) {
    if (next == sizes.length) {
      double max = 0;
      for (double load : loads) {
        max = Math.max(max, load);
      }
      return max;
    }
    double best = Double.POSITIVE_INFINITY;
    for (int h = 0; h < loads.length; h++) {
      loads[h] += sizes[next];
      best = Math.min(best, bruteForceMakespan(sizes, loads, next + 1));
      loads[h] -= sizes[next];
      if (loads[h] == 0) {
        break; // empty hosts are interchangeable
      }
    }
    return best;
  }

  /**
   * Replays the swaps on the LPT placement: each moves a reduce from its current host to its
   * preferred host with the bound of the pseudocode, possibly exchanging one reduce not on its own
   * preferred host, and no host whose load grows ends above the bound.
   */
  @Test
  void schedule_randomCases_swapsNeverPushAnInvolvedHostOverUpperBound() {
    SplittableRandom random = new SplittableRandom(4);
    int swapsSeen = 0;
    int exchangesSeen = 0;
    for (int trial = 0; trial < CASES; trial++) {
      Case c = randomCase(random, 12, 80);
      MinHeapSchedule schedule = scheduler.scheduleDetailed(c.maps(), c.hosts(), c.reduces());
      Map<Integer, ReducePrediction> byId = new HashMap<>();
      c.reduces().forEach(r -> byId.put(r.reduceId(), r));
      Map<Integer, String> placement = new HashMap<>(schedule.beforeSwap().assignment());
      Map<String, Double> loads = new HashMap<>(schedule.beforeSwap().loads());
      assertEquals(
          schedule.beforeSwap().maxLoad(), schedule.maxLoadBeforeSwap(), 1e-9 * Math.max(1,
              schedule.maxLoadBeforeSwap()));
      for (LocalitySwap swap : schedule.swaps()) {
        swapsSeen++;
        ReducePrediction reduce = byId.get(swap.reduceId());
        assertEquals(swap.fromHost(), placement.get(swap.reduceId()), "trial " + trial);
        assertEquals(Optional.of(swap.toHost()), reduce.hostId(), "trial " + trial);
        double upper = (1 + HeuristicMinHeapScheduler.norm(reduce.prob(), c.maps())) * schedule.maxLoadBeforeSwap();
        assertEquals(upper, swap.upperBound(), 1e-12 * Math.max(1, upper));
        double fromBefore = loads.get(swap.fromHost());
        double toBefore = loads.get(swap.toHost());
        double fromAfter = fromBefore - reduce.size();
        double toAfter = toBefore + reduce.size();
        placement.put(swap.reduceId(), swap.toHost());
        if (swap.returnedReduceId().isPresent()) {
          exchangesSeen++;
          ReducePrediction returned = byId.get(swap.returnedReduceId().getAsInt());
          assertEquals(swap.toHost(), placement.get(returned.reduceId()), "trial " + trial);
          assertTrue(!returned.hostId().equals(Optional.of(swap.toHost())), "trial " + trial);
          fromAfter += returned.size();
          toAfter -= returned.size();
          placement.put(returned.reduceId(), swap.fromHost());
        }
        double tolerance = 1e-9 * Math.max(1, upper);
        assertTrue(toAfter <= toBefore + tolerance || toAfter <= upper + tolerance, "trial " + trial);
        assertTrue(fromAfter <= fromBefore + tolerance || fromAfter <= upper + tolerance, "trial " + trial);
        loads.put(swap.fromHost(), fromAfter);
        loads.put(swap.toHost(), toAfter);
      }
      assertEquals(schedule.result().assignment(), placement, "trial " + trial);
      for (String host : c.hosts()) {
        assertEquals(schedule.result().loadOf(host), loads.get(host), 1e-9 * Math.max(1, loads.get(host)));
      }
    }
    assertTrue(swapsSeen > CASES, "only " + swapsSeen + " swaps");
    assertTrue(exchangesSeen > 100, "only " + exchangesSeen + " exchanges");
  }

  @Test
  void schedule_randomCases_inputOrderDoesNotChangeResult() {
    SplittableRandom random = new SplittableRandom(5);
    for (int trial = 0; trial < 500; trial++) {
      Case c = randomCase(random, 8, 60);
      List<ReducePrediction> shuffled = new ArrayList<>(c.reduces());
      Collections.shuffle(shuffled, new Random(trial));
      assertEquals(
          scheduler.schedule(c.maps(), c.hosts(), c.reduces()).assignment(),
          scheduler.schedule(c.maps(), c.hosts(), shuffled).assignment(),
          "trial " + trial);
    }
  }
}
