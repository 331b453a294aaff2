package org.scache.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class ChunkPoolTest {
  @Test
  void aChunkGivenBack_isTakenAgain_forItsSizeOnly() {
    ChunkPool pool = new ChunkPool(1 << 20);
    byte[] small = pool.take(32 * 1024);
    byte[] large = pool.take(256 * 1024);

    pool.giveBack(List.of(small, large));

    assertEquals(288 * 1024, pool.keptBytes());
    assertSame(large, pool.take(256 * 1024));
    assertNotSame(small, pool.take(64 * 1024));
    assertSame(small, pool.take(32 * 1024));
    assertEquals(0, pool.keptBytes());
  }

  @Test
  void chunksPastTheCapacity_areLeftToTheCollector() {
    ChunkPool pool = new ChunkPool(300 * 1024);

    pool.giveBack(List.of(new byte[256 * 1024], new byte[256 * 1024], new byte[32 * 1024]));

    // the first fits; the second would pass 300 KiB, and so nothing after it is kept
    assertEquals(256 * 1024, pool.keptBytes());
  }

  @Test
  void aPoolOfNoCapacity_keepsNothing() {
    ChunkPool pool = new ChunkPool(0);
    byte[] c = pool.take(32 * 1024);

    pool.giveBack(List.of(c));

    assertEquals(0, pool.keptBytes());
    assertNotSame(c, pool.take(32 * 1024));
  }

  @Test
  void aSizeThatIsNoChunkSize_isRefused() {
    ChunkPool pool = new ChunkPool(1 << 20);

    assertThrows(IllegalArgumentException.class, () -> pool.take(48 * 1024));
    assertThrows(IllegalArgumentException.class, () -> pool.take(16 * 1024));
    assertThrows(IllegalArgumentException.class, () -> pool.take(512 * 1024));
  }
}
