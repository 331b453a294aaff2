package org.scache.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;

class BlockBuffersTest {
  private static final int KIB = 1024;

  private static BlockBuffers buffers(long capacity) {
    return new BlockBuffers(capacity, 64 * KIB, 8 << 20);
  }

  @Test
  void aBuffer_isDirect_roundedUpToAPowerOfTwo_andLimitedToTheSizeAskedFor() {
    BlockBuffers buffers = buffers(16 << 20);

    ByteBuffer b = buffers.take(100_000);

    assertTrue(b.isDirect());
    assertEquals(128 * KIB, b.capacity());
    assertEquals(0, b.position());
    assertEquals(100_000, b.limit());
    assertEquals(64 * KIB, buffers.take(10).capacity(), "the smallest buffer is 64 KiB");
  }

  @Test
  void aBufferGivenBack_isTakenAgain_forAnySizeOfItsClass_andNoOther() {
    BlockBuffers buffers = buffers(16 << 20);
    ByteBuffer b = buffers.take(100_000);
    ByteBuffer large = buffers.take(1 << 20);
    b.position(500);

    buffers.giveBack(List.of(b, large));

    assertEquals(128 * KIB + (1 << 20), buffers.freeBytes());
    assertNotSame(b, buffers.take(256 * KIB));
    ByteBuffer again = buffers.take(70_000);
    assertSame(b, again);
    assertEquals(0, again.position());
    assertEquals(70_000, again.limit());
    assertSame(large, buffers.take(1 << 20));
    assertEquals(0, buffers.freeBytes());
    assertEquals(128 * KIB + 256 * KIB + (1 << 20), buffers.allocatedBytes(), "reused, not allocated again");
  }

  @Test
  void pastTheCapacity_orPastTheLargestBuffer_buffersComeFromTheHeap() {
    BlockBuffers buffers = buffers(200 * KIB);

    assertTrue(buffers.take(128 * KIB).isDirect());
    assertFalse(buffers.take(128 * KIB).isDirect(), "a second 128 KiB would pass 200 KiB");
    assertTrue(buffers.take(64 * KIB).isDirect());
    ByteBuffer huge = buffers(1L << 30).take((8 << 20) + 1);
    assertFalse(huge.isDirect());
    assertEquals((8 << 20) + 1, huge.remaining());
  }

  @Test
  void heapBuffersGivenBack_areNotKept() {
    BlockBuffers buffers = buffers(0);
    ByteBuffer b = buffers.take(1000);

    buffers.giveBack(b);

    assertFalse(b.isDirect());
    assertEquals(0, buffers.freeBytes());
    assertEquals(0, buffers.allocatedBytes());
    assertNotSame(b, buffers.take(1000));
  }

  @Test
  void chunkSizedPools_handOutExactlyThePowerOfTwoAskedFor() {
    BlockBuffers chunks = new BlockBuffers(1 << 20, 32 * KIB, 256 * KIB);

    ByteBuffer small = chunks.take(32 * KIB);
    ByteBuffer large = chunks.take(256 * KIB);

    assertEquals(32 * KIB, small.capacity());
    assertEquals(32 * KIB, small.remaining());
    assertEquals(256 * KIB, large.remaining());
  }

  @Test
  void sizeClassesThatAreNotPowersOfTwo_areRefused() {
    assertThrows(IllegalArgumentException.class, () -> new BlockBuffers(1 << 20, 48 * KIB, 256 * KIB));
    assertThrows(IllegalArgumentException.class, () -> new BlockBuffers(1 << 20, 256 * KIB, 32 * KIB));
  }
}
