package org.scache.master;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.scache.common.WorkerInfo;
import org.scache.common.testing.ManualClock;

class WorkerRegistryTest {
  private final ManualClock clock = new ManualClock();
  private final WorkerRegistry registry = new WorkerRegistry(clock, Duration.ofSeconds(10));

  @Test
  void silentWorker_expiresAfterTheExpiry_andHeartbeatsKeepOthersAlive() {
    registry.register(new WorkerInfo("b", "h", 2), 100, 0);
    registry.register(new WorkerInfo("a", "h", 1), 100, 0);
    clock.advance(Duration.ofMillis(6_000));
    assertTrue(registry.heartbeat("a", 100, 10));
    clock.advance(Duration.ofMillis(5_000));
    assertEquals(List.of(new WorkerInfo("b", "h", 2)), registry.expire());
    assertEquals(List.of(new WorkerInfo("a", "h", 1)), registry.live());
    assertFalse(registry.heartbeat("b", 100, 0), "an expired worker must register again");
  }

  @Test
  void live_isOrderedById() {
    registry.register(new WorkerInfo("w2", "h", 2), 1, 0);
    registry.register(new WorkerInfo("w1", "h", 1), 1, 0);
    assertEquals("w1", registry.live().get(0).workerId());
  }
}
