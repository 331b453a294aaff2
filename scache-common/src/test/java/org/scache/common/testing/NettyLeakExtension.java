package org.scache.common.testing;

import io.netty.buffer.AbstractByteBuf;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.ResourceLeakDetectorFactory;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test that leaks a Netty buffer: installs leak detectors that record what they report, and
 * after each test collects garbage once and polls them; after the class, three times, so that a leak
 * one collection did not find fails the next test (as left by an earlier one) or the class. Register it
 * with {@code @ExtendWith(NettyLeakExtension.class)} on every test class that allocates buffers.
 */
public final class NettyLeakExtension implements BeforeEachCallback, AfterEachCallback, AfterAllCallback {
  private static final Queue<String> LEAKS = new ConcurrentLinkedQueue<>();
  private static final int DETECTION_PASSES = 3;
  private static boolean installed;

  static {
    install();
  }

  /**
   * Installs the recording detectors and sets paranoid leak detection. Buffers only use a detector
   * installed before the first buffer of the JVM exists; if one existed already, a listener on the
   * buffer detector records its reports instead.
   */
  public static synchronized void install() {
    if (installed) {
      return;
    }
    installed = true;
    ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
    ResourceLeakDetectorFactory.setResourceLeakDetectorFactory(new RecordingDetectorFactory());
    ResourceLeakDetector<?> bufferDetector = bufferLeakDetector();
    if (bufferDetector != null && !(bufferDetector instanceof RecordingLeakDetector)) {
      bufferDetector.setLeakListener((type, records) -> LEAKS.add(type + " leaked:\n" + records));
    }
  }

  /** The detector every {@link ByteBuf} is tracked by, or null if Netty no longer exposes it. */
  private static ResourceLeakDetector<?> bufferLeakDetector() {
    try {
      Field f = AbstractByteBuf.class.getDeclaredField("leakDetector");
      f.setAccessible(true);
      return (ResourceLeakDetector<?>) f.get(null);
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    List<String> earlier = drain();
    if (!earlier.isEmpty()) {
      throw new AssertionError("buffers leaked before " + context.getDisplayName()
          + " started (by an earlier test):\n" + String.join("\n", earlier));
    }
  }

  @Override
  public void afterEach(ExtensionContext context) {
    List<String> leaks = detectLeaks(1);
    if (!leaks.isEmpty()) {
      throw new AssertionError(leaks.size() + " buffer leak(s) in " + context.getDisplayName() + ":\n"
          + String.join("\n", leaks));
    }
  }

  @Override
  public void afterAll(ExtensionContext context) {
    assertNoLeaks(context.getDisplayName());
  }

  /** Collects garbage, polls the detectors and fails if any leak was reported since the last call. */
  public static void assertNoLeaks(String testName) {
    List<String> leaks = detectLeaks();
    if (!leaks.isEmpty()) {
      throw new AssertionError(leaks.size() + " buffer leak(s) in " + testName + ":\n" + String.join("\n", leaks));
    }
  }

  /** Runs a few detection passes and returns (and forgets) every leak reported so far. */
  public static List<String> detectLeaks() {
    return detectLeaks(DETECTION_PASSES);
  }

  private static List<String> detectLeaks(int passes) {
    for (int i = 0; i < passes; i++) {
      System.gc();
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
      // detectors look for collected, unreleased buffers when the next buffer is tracked
      ByteBufAllocator.DEFAULT.buffer(8).release();
      ByteBufAllocator.DEFAULT.directBuffer(8).release();
      Unpooled.buffer(8).release();
    }
    return drain();
  }

  private static List<String> drain() {
    List<String> out = new ArrayList<>();
    for (String s; (s = LEAKS.poll()) != null; ) {
      out.add(s);
    }
    return out;
  }

  private static final class RecordingDetectorFactory extends ResourceLeakDetectorFactory {
    // the abstract method every factory must implement, though Netty 4.1 marks it deprecated
    @SuppressWarnings("deprecation")
    @Override
    public <T> ResourceLeakDetector<T> newResourceLeakDetector(Class<T> resource, int samplingInterval,
        long maxActive) {
      return new RecordingLeakDetector<>(resource, samplingInterval);
    }

    @Override
    public <T> ResourceLeakDetector<T> newResourceLeakDetector(Class<T> resource, int samplingInterval) {
      return new RecordingLeakDetector<>(resource, samplingInterval);
    }
  }

  private static final class RecordingLeakDetector<T> extends ResourceLeakDetector<T> {
    RecordingLeakDetector(Class<T> resource, int samplingInterval) {
      super(resource, samplingInterval);
    }

    @Override
    protected boolean needReport() {
      return true;
    }

    @Override
    protected void reportTracedLeak(String resourceType, String records) {
      LEAKS.add(resourceType + " leaked:\n" + records);
      super.reportTracedLeak(resourceType, records);
    }

    @Override
    protected void reportUntracedLeak(String resourceType) {
      LEAKS.add(resourceType + " leaked (no access records)");
      super.reportUntracedLeak(resourceType);
    }
  }
}
