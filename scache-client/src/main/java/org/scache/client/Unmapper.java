package org.scache.client;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Unmaps a mapped (or frees a direct) buffer at once, through the JDK's own cleaner
 * ({@code sun.misc.Unsafe#invokeCleaner}, in the exported {@code jdk.unsupported} module, looked up at run
 * time), rather than when the collector finds it unreachable. Plain JDK: a task's client closes its mappings
 * without initialising Netty. Where the JDK does not offer it, the buffer is left to the collector.
 */
final class Unmapper {
  private static final Logger LOG = LoggerFactory.getLogger(Unmapper.class);
  private static final Optional<MethodHandle> INVOKE_CLEANER = invokeCleaner();

  private Unmapper() {}

  /** Unmaps {@code buffer}, an original mapping (not a slice or duplicate); nothing may read it afterwards. */
  static void unmap(ByteBuffer buffer) {
    if (INVOKE_CLEANER.isEmpty() || !buffer.isDirect()) {
      return;
    }
    try {
      INVOKE_CLEANER.get().invokeExact(buffer);
    } catch (IllegalArgumentException e) {
      LOG.debug("left a buffer to the collector: {}", e.getMessage());
    } catch (Throwable e) {
      throw new IllegalStateException("the JDK's cleaner failed on a buffer", e);
    }
  }

  /** {@code theUnsafe.invokeCleaner(ByteBuffer)}, bound, if this JDK has it. */
  private static Optional<MethodHandle> invokeCleaner() {
    try {
      Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
      Field f = unsafeClass.getDeclaredField("theUnsafe");
      f.setAccessible(true);
      Object unsafe = f.get(null);
      MethodHandle invoke = MethodHandles.lookup().findVirtual(unsafeClass, "invokeCleaner",
          MethodType.methodType(void.class, ByteBuffer.class));
      return Optional.of(invoke.bindTo(unsafe));
    } catch (ReflectiveOperationException | RuntimeException e) {
      LOG.debug("mappings are unmapped by the collector: {}", e.toString());
      return Optional.empty();
    }
  }
}
