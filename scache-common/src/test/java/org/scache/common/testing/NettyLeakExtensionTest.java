package org.scache.common.testing;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import org.junit.jupiter.api.Test;

/** The leak check can fail: a buffer dropped without release is reported. */
class NettyLeakExtensionTest {

  private static void leakOneBuffer() {
    ByteBuf leaked = ByteBufAllocator.DEFAULT.buffer(64);
    leaked.writeLong(42);
  }

  @Test
  void assertNoLeaks_bufferDroppedWithoutRelease_fails() {
    NettyLeakExtension.install();
    assertTrue(ResourceLeakDetector.getLevel() == ResourceLeakDetector.Level.PARANOID);
    NettyLeakExtension.detectLeaks();
    leakOneBuffer();
    for (int attempt = 0; attempt < 50; attempt++) {
      try {
        NettyLeakExtension.assertNoLeaks("the leaking test");
      } catch (AssertionError e) {
        assertTrue(e.getMessage().contains("leakOneBuffer"), e.getMessage());
        return;
      }
    }
    fail("a buffer dropped without release was never reported");
  }

  @Test
  void assertNoLeaks_everyBufferReleased_passes() {
    NettyLeakExtension.install();
    NettyLeakExtension.detectLeaks();
    ByteBuf b = ByteBufAllocator.DEFAULT.buffer(64);
    b.writeLong(42);
    b.release();
    assertDoesNotThrow(() -> NettyLeakExtension.assertNoLeaks("the careful test"));
  }
}
