package org.scache.master.predict;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;

class HeldBytesTest {
  @Test
  void sumsPast2GiB_keepEveryHoldersBytesExact() {
    HeldBytes held = new HeldBytes();
    held.reducesKnown(3);
    int w1 = held.indexOf("w1");
    int w2 = held.indexOf("w2");
    held.add(w1, 0, 5);
    held.add(w1, 2, Integer.MAX_VALUE);
    held.add(w1, 2, Integer.MAX_VALUE);
    held.add(w2, 7, 9); // a reduce past the known count still lands
    assertEquals(2L * Integer.MAX_VALUE, held.held(w1, 2));
    assertEquals(5, held.held(w1, 0), "the column's other sums survive its widening");
    held.remove(w1, 2, Integer.MAX_VALUE);
    assertEquals(Integer.MAX_VALUE, held.held(w1, 2));
    held.remove(w1, 0, 10);
    assertEquals(0, held.held(w1, 0), "never below zero");
    assertArrayEquals(new long[] {0, 0, Integer.MAX_VALUE}, held.byReduce(3));
    assertEquals(9, held.byReduceAndWorker(8, Map.of("w2", 0))[7][0]);
    held.clear(w1);
    assertEquals(0, held.held(w1, 2));
    assertEquals(w1, held.indexOf("w1"), "a holder that came back keeps its index");
  }
}
