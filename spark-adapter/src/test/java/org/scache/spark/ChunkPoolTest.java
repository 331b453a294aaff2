package org.scache.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChunkPoolTest {
  @Test
  void aDirectChunkGivenBack_isTakenAgainEmpty_forItsSizeOnly() {
    ChunkPool pool = new ChunkPool(1 << 20);
    ByteBuffer small = pool.take(32 * 1024);
    ByteBuffer large = pool.take(256 * 1024);
    assertTrue(small.isDirect() && large.isDirect());
    small.put(new byte[100]);

    pool.giveBack(List.of(small, large));

    assertEquals(288 * 1024, pool.keptBytes());
    assertSame(large, pool.take(256 * 1024));
    assertNotSame(small, pool.take(64 * 1024));
    ByteBuffer again = pool.take(32 * 1024);
    assertSame(small, again);
    assertEquals(0, again.position());
    assertEquals(32 * 1024, again.remaining());
    assertEquals(0, pool.keptBytes());
    assertEquals((32 + 64 + 256) * 1024, pool.allocatedBytes());
  }

  @Test
  void pastItsCapacity_thePoolHandsOutHeapChunks_andDoesNotKeepThem() {
    ChunkPool pool = new ChunkPool(300 * 1024);
    ByteBuffer first = pool.take(256 * 1024);
    ByteBuffer second = pool.take(256 * 1024);
    ByteBuffer third = pool.take(32 * 1024);

    assertTrue(first.isDirect());
    assertFalse(second.isDirect(), "256 KiB more would pass 300 KiB of direct memory");
    assertTrue(third.isDirect());
    pool.giveBack(List.of(first, second, third));
    assertEquals(288 * 1024, pool.keptBytes());
    assertEquals(288 * 1024, pool.allocatedBytes());
  }

  @Test
  void aPoolOfNoCapacity_takesEveryChunkFromTheHeap() {
    ChunkPool pool = new ChunkPool(0);
    ByteBuffer c = pool.take(32 * 1024);

    pool.giveBack(List.of(c));

    assertFalse(c.isDirect());
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
