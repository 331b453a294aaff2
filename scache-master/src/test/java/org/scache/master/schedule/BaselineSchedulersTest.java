package org.scache.master.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.scache.master.predict.ReducePrediction;

class BaselineSchedulersTest {

  private static List<ReducePrediction> reduces(int... ids) {
    return IntStream.of(ids).mapToObj(id -> ReducePrediction.withoutHost(id, id + 1)).toList();
  }

  @Test
  void fifo_dealsReduceIdsInOrderRoundRobin() {
    HostPlacement result = new FifoRoundRobinScheduler().schedule(1, List.of("a", "b"), reduces(3, 1, 2, 0, 4));
    assertEquals(Map.of(0, "a", 1, "b", 2, "a", 3, "b", 4, "a"), result.assignment());
    assertEquals(9, result.loadOf("a"));
  }

  @Test
  void random_sameSeed_samePlacement_andCountsDifferByAtMostOne() {
    List<ReducePrediction> reduces = reduces(IntStream.range(0, 101).toArray());
    List<String> hosts = List.of("a", "b", "c", "d");
    HostPlacement first = new RandomScheduler(new SplittableRandom(9)).schedule(1, hosts, reduces);
    HostPlacement again = new RandomScheduler(new SplittableRandom(9)).schedule(1, hosts, reduces);
    HostPlacement other = new RandomScheduler(new SplittableRandom(10)).schedule(1, hosts, reduces);
    assertEquals(first.assignment(), again.assignment());
    assertNotEquals(first.assignment(), other.assignment());
    for (String host : hosts) {
      int count = first.reducesOn(host).size();
      assertTrue(count == 25 || count == 26, host + " has " + count);
    }
    assertEquals(101, first.reduceCount());
  }
}
