package org.scache.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

class BlockBuffersTest {
  @Test
  void aBuffer_isDirect_roundedUpToAPowerOfTwo_andLimitedToTheSizeAskedFor() {
    BlockBuffers buffers = new BlockBuffers(16 << 20);

    ByteBuffer b = buffers.take(100_000);

    assertTrue(b.isDirect());
    assertEquals(128 * 1024, b.capacity());
    assertEquals(0, b.position());
    assertEquals(100_000, b.limit());
    assertEquals(64 * 1024, buffers.take(10).capacity(), "the smallest buffer is 64 KiB");
  }

  @Test
  void aBufferGivenBack_isTakenAgain_forAnySizeOfItsClass() {
    BlockBuffers buffers = new BlockBuffers(16 << 20);
    ByteBuffer b = buffers.take(100_000);
    b.position(500);

    buffers.giveBack(b);

    assertEquals(128 * 1024, buffers.freeBytes());
    ByteBuffer again = buffers.take(70_000);
    assertSame(b, again);
    assertEquals(0, again.position());
    assertEquals(70_000, again.limit());
    assertEquals(128 * 1024, buffers.allocatedBytes(), "reused, not allocated again");
  }

  @Test
  void pastTheCapacity_orPastTheLargestBuffer_blocksAreCopiedToTheHeap() {
    BlockBuffers buffers = new BlockBuffers(200 * 1024);

    assertTrue(buffers.take(128 * 1024).isDirect());
    assertFalse(buffers.take(128 * 1024).isDirect(), "a second 128 KiB would pass 200 KiB");
    assertTrue(buffers.take(64 * 1024).isDirect());
    ByteBuffer huge = new BlockBuffers(1L << 30).take(BlockBuffers.LARGEST + 1);
    assertFalse(huge.isDirect());
    assertEquals(BlockBuffers.LARGEST + 1, huge.remaining());
  }

  @Test
  void heapBuffersGivenBack_areNotKept() {
    BlockBuffers buffers = new BlockBuffers(0);
    ByteBuffer b = buffers.take(1000);

    buffers.giveBack(b);

    assertFalse(b.isDirect());
    assertEquals(0, buffers.freeBytes());
    assertEquals(0, buffers.allocatedBytes());
  }
}
