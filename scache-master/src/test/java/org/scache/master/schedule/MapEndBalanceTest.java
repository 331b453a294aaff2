package org.scache.master.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class MapEndBalanceTest {
  private final MapEndBalance balance = new MapEndBalance(0.05);

  /** Every one of {@code reduces} reduces has {@code perWorker[w]} bytes on worker w. */
  private static long[][] everyReduceHolds(int reduces, long... perWorker) {
    long[][] held = new long[reduces][];
    for (int r = 0; r < reduces; r++) {
      held[r] = perWorker.clone();
    }
    return held;
  }

  /** Reduce r on worker r mod workers. */
  private static int[] roundRobin(int reduces, int workers) {
    int[] hosts = new int[reduces];
    for (int r = 0; r < reduces; r++) {
      hosts[r] = r % workers;
    }
    return hosts;
  }

  /** The larger of what the busiest worker sends and receives, with the reduces on {@code hosts}. */
  private static long largestLoad(long[][] held, int[] hosts) {
    int workers = held[0].length;
    long[] out = new long[workers];
    long[] in = new long[workers];
    for (int r = 0; r < held.length; r++) {
      for (int w = 0; w < workers; w++) {
        if (w != hosts[r]) {
          out[w] += held[r][w];
          in[hosts[r]] += held[r][w];
        }
      }
    }
    long largest = 0;
    for (int w = 0; w < workers; w++) {
      largest = Math.max(largest, Math.max(out[w], in[w]));
    }
    return largest;
  }

  private static int[] after(int[] hosts, List<MapEndBalance.Move> moves) {
    int[] now = hosts.clone();
    for (MapEndBalance.Move m : moves) {
      assertEquals(now[m.reduceId()], m.from(), "a move starts where its reduce is");
      now[m.reduceId()] = m.to();
    }
    return now;
  }

  @Test
  void mapsRunUnevenly_aReduceMovesToTheWorkerHoldingMost_andTheBusiestLinkCarriesLess() {
    // worker 0 ran 10 of 24 maps, workers 1 and 2 seven each: worker 0 sends 80, the others 56
    long[][] held = everyReduceHolds(12, 10, 7, 7);
    int[] hosts = roundRobin(12, 3);
    assertEquals(80, largestLoad(held, hosts));

    List<MapEndBalance.Move> moves = balance.moves(held, hosts, 6);

    assertEquals(1, moves.size(), "one move evens the links out; a second would load worker 0's incoming side");
    assertEquals(0, moves.get(0).to());
    assertEquals(70, largestLoad(held, after(hosts, moves)), "worker 0 sends 70 and receives 70");
  }

  @Test
  void mapsRunEvenly_nothingMoves() {
    assertEquals(List.of(), balance.moves(everyReduceHolds(12, 8, 8, 8), roundRobin(12, 3), 6));
  }

  @Test
  void anImbalanceNoMoveEasesByTheLeastGain_isLeftAsPlaced() {
    // worker 0 sends 72; a reduce moved to it would make it receive 75
    long[][] held = everyReduceHolds(12, 9, 8, 7);
    assertEquals(List.of(), balance.moves(held, roundRobin(12, 3), 6));
  }

  @Test
  void aWorkerAtItsMostReduces_takesNoMore() {
    assertEquals(List.of(), balance.moves(everyReduceHolds(12, 10, 7, 7), roundRobin(12, 3), 4));
  }

  @Test
  void onAManyWorkerSkew_eachReduceMovesAtMostOnce_andTheLargestLoadNeverGrows() {
    java.util.Random random = new java.util.Random(7);
    for (int trial = 0; trial < 200; trial++) {
      int workers = 2 + random.nextInt(6);
      int reduces = 1 + random.nextInt(40);
      long[][] held = new long[reduces][workers];
      for (long[] row : held) {
        for (int w = 0; w < workers; w++) {
          row[w] = random.nextInt(3) == 0 ? 0 : random.nextInt(1000) * (w == 0 ? 3L : 1L);
        }
      }
      int[] hosts = roundRobin(reduces, workers);
      int most = (reduces + workers - 1) / workers + 1;
      List<MapEndBalance.Move> moves = balance.moves(held, hosts, most);
      Set<Integer> moved = new HashSet<>();
      moves.forEach(m -> assertTrue(moved.add(m.reduceId()), "reduce " + m.reduceId() + " moved twice"));
      int[] now = after(hosts, moves);
      assertTrue(largestLoad(held, now) <= largestLoad(held, hosts));
      if (!moves.isEmpty()) {
        assertTrue(largestLoad(held, now) <= largestLoad(held, hosts) * 0.95, "each move saves at least 5 %");
      }
      int[] count = new int[workers];
      for (int h : now) {
        count[h]++;
      }
      for (int w = 0; w < workers; w++) {
        assertTrue(count[w] <= Math.max(most, countOf(hosts, w)), "worker " + w + " has " + count[w] + " reduces");
      }
    }
  }

  private static int countOf(int[] hosts, int worker) {
    int n = 0;
    for (int h : hosts) {
      n += h == worker ? 1 : 0;
    }
    return n;
  }

  @Test
  void holdingsOfAnotherShape_areRefused() {
    assertThrows(IllegalArgumentException.class, () -> balance.moves(new long[2][3], new int[3], 4));
    assertThrows(IllegalArgumentException.class, () -> balance.moves(new long[1][3], new int[] {3}, 4));
    assertThrows(IllegalArgumentException.class, () -> new MapEndBalance(0));
  }
}
