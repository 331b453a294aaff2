package org.scache.client;

import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Unmaps a mapped (or frees a direct) buffer at once, through the JDK's own cleaner
 * ({@code sun.misc.Unsafe#invokeCleaner}, in the exported {@code jdk.unsupported} module), rather
 * than when the collector finds it unreachable. Plain JDK: a task's client closes its mappings
 * without initialising Netty. Where the JDK does not offer it, the buffer is left to the collector.
 */
final class Unmapper {
  private static final Logger LOG = LoggerFactory.getLogger(Unmapper.class);
  private static final sun.misc.Unsafe UNSAFE = unsafe();

  private Unmapper() {}

  /** Unmaps {@code buffer}, an original mapping (not a slice or duplicate); nothing may read it afterwards. */
  static void unmap(ByteBuffer buffer) {
    if (UNSAFE == null || !buffer.isDirect()) {
      return;
    }
    try {
      UNSAFE.invokeCleaner(buffer);
    } catch (IllegalArgumentException e) {
      LOG.debug("left a buffer to the collector: {}", e.getMessage());
    }
  }

  private static sun.misc.Unsafe unsafe() {
    try {
      Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
      f.setAccessible(true);
      return (sun.misc.Unsafe) f.get(null);
    } catch (ReflectiveOperationException | RuntimeException e) {
      LOG.debug("mappings are unmapped by the collector: {}", e.toString());
      return null;
    }
  }
}
