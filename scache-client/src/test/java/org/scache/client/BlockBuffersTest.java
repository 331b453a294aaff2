package org.scache.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BlockBuffersTest {
  private static final int KIB = 1024;

  @Test
  void aBuffer_isDirect_ofExactlyTheSizeAskedFor() {
    BlockBuffers buffers = new BlockBuffers(16 << 20);

    ByteBuffer b = buffers.take(1_300_000);

    assertTrue(b.isDirect());
    assertEquals(0, b.position());
    assertEquals(1_300_000, b.limit());
    assertEquals(1_300_000, b.capacity());
    assertEquals(1_300_000, buffers.lentBytes());
  }

  @Test
  void buffersGivenBack_areReused_soThePoolDoesNotGrowWithTheBlocksCopied() {
    BlockBuffers buffers = new BlockBuffers(64 << 20);
    for (int round = 0; round < 50; round++) {
      List<ByteBuffer> input = new ArrayList<>();
      for (int block = 0; block < 24; block++) {
        ByteBuffer b = buffers.take(1_250_000 + 1000 * block);
        b.put(0, (byte) block);
        input.add(b);
      }
      buffers.giveBack(input);
    }

    assertEquals(0, buffers.lentBytes());
    assertTrue(buffers.pooledBytes() <= 40 << 20, "50 inputs of 30 MB copied through "
        + buffers.pooledBytes() + " bytes of pooled memory");
  }

  @Test
  void pastTheCapacity_buffersComeFromTheHeap_untilLentOnesAreGivenBack() {
    BlockBuffers buffers = new BlockBuffers(200 * KIB);
    ByteBuffer first = buffers.take(128 * KIB);

    assertTrue(first.isDirect());
    assertFalse(buffers.take(128 * KIB).isDirect(), "a second 128 KiB would pass 200 KiB");
    assertTrue(buffers.take(64 * KIB).isDirect());
    buffers.giveBack(first);
    assertTrue(buffers.take(128 * KIB).isDirect());
    ByteBuffer huge = new BlockBuffers(1L << 30).take(16 << 20);
    assertTrue(huge.isDirect(), "blocks larger than a pool chunk are direct too");
  }

  @Test
  void heapBuffers_andBuffersGivenBackTwice_areNotCounted() {
    BlockBuffers buffers = new BlockBuffers(0);
    ByteBuffer heap = buffers.take(1000);
    buffers.giveBack(heap);
    assertFalse(heap.isDirect());
    assertEquals(0, buffers.lentBytes());

    BlockBuffers direct = new BlockBuffers(1 << 20);
    ByteBuffer b = direct.take(1000);
    direct.giveBack(b);
    direct.giveBack(b);
    assertEquals(0, direct.lentBytes());
  }
}
