package org.scache.worker.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ExtentAllocatorTest {

  @Test
  void allocate_whenFull_returnsEmpty_andFreeMakesRoomAgain() {
    ExtentAllocator a = new ExtentAllocator(1000);
    OptionalLong x = a.allocate(600);
    OptionalLong y = a.allocate(400);
    assertTrue(x.isPresent() && y.isPresent());
    assertTrue(a.allocate(1).isEmpty());
    a.release(x.getAsLong(), 600);
    assertEquals(600, a.freeBytes());
    assertTrue(a.allocate(600).isPresent());
  }

  @Test
  void release_coalescesNeighbours_soALargeRangeFitsAgain() {
    ExtentAllocator a = new ExtentAllocator(300);
    long p = a.allocate(100).getAsLong();
    long q = a.allocate(100).getAsLong();
    long r = a.allocate(100).getAsLong();
    a.release(p, 100);
    a.release(r, 100);
    assertEquals(100, a.largestFree());
    a.release(q, 100);
    assertEquals(300, a.largestFree());
  }

  @Test
  void release_twice_isDetected() {
    ExtentAllocator a = new ExtentAllocator(300);
    long p = a.allocate(100).getAsLong();
    a.allocate(100);
    a.release(p, 100);
    assertThrows(IllegalStateException.class, () -> a.release(p, 100));
  }

  @Test
  void randomAllocations_neverOverlap_andAccountingIsExact() {
    SplittableRandom rnd = new SplittableRandom(11);
    ExtentAllocator a = new ExtentAllocator(1 << 20);
    List<long[]> live = new ArrayList<>();
    long used = 0;
    for (int i = 0; i < 20_000; i++) {
      if (!live.isEmpty() && rnd.nextInt(3) == 0) {
        long[] e = live.remove(rnd.nextInt(live.size()));
        a.release(e[0], e[1]);
        used -= e[1];
      } else {
        long len = 1 + rnd.nextInt(20_000);
        OptionalLong off = a.allocate(len);
        if (off.isPresent()) {
          for (long[] e : live) {
            assertTrue(off.getAsLong() + len <= e[0] || e[0] + e[1] <= off.getAsLong(), "overlap");
          }
          live.add(new long[] {off.getAsLong(), len});
          used += len;
        }
      }
      assertEquals((1 << 20) - used, a.freeBytes());
    }
  }
}
