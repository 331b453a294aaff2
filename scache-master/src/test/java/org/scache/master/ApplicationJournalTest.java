package org.scache.master;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.scache.common.Clock;
import org.scache.common.ScacheException;
import org.scache.common.config.ScacheOptions;
import org.scache.common.protocol.Status;

/** What a registry with a state directory knows survives it, a torn last line included, and the file stays small. */
class ApplicationJournalTest {
  private long now = 1_000_000;
  private final Clock clock = new Clock() {
    @Override
    public long millis() {
      return now;
    }

    @Override
    public long nanos() {
      return now * 1_000_000;
    }
  };

  private ApplicationRegistry open(Path dir) {
    return new ApplicationRegistry(clock, Duration.ofMinutes(10), Optional.of(dir));
  }

  @Test
  void registrationsAndRemovals_areReadBackByTheNextRegistry() {
    Path dir = tmp.resolve("state");
    try (ApplicationRegistry first = open(dir)) {
      first.register("app-1", bytes("one"));
      first.register("app-2", bytes("two"));
      first.register("app-1", bytes("one"));
      first.remove("app-2");
    }
    try (ApplicationRegistry second = open(dir)) {
      assertArrayEquals(bytes("one"), second.requireSecret("app-1"));
      ScacheException e = assertThrows(ScacheException.class, () -> second.register("app-1", bytes("other")));
      assertEquals(Status.AUTH_FAILED, e.status());
      assertFalse(second.isRegistered("app-2"));
      assertEquals(List.of("app-2"), second.removedAmong(List.of("app-1", "app-2")));
      e = assertThrows(ScacheException.class, () -> second.register("app-2", bytes("two")));
      assertEquals(Status.INVALID_ARGUMENT, e.status());
    }
  }

  @Test
  void aTornLastLine_isIgnored() throws Exception {
    Path dir = tmp.resolve("torn");
    try (ApplicationRegistry first = open(dir)) {
      first.register("app-1", bytes("one"));
    }
    Files.writeString(dir.resolve(ApplicationJournal.FILE), "R YXBwLTI", StandardOpenOption.APPEND);
    try (ApplicationRegistry second = open(dir)) {
      assertTrue(second.isRegistered("app-1"));
      assertFalse(second.isRegistered("app-2"));
    }
  }

  @Test
  void expiredTombstones_areForgotten_andTheJournalIsRewrittenSmall() throws Exception {
    Path dir = tmp.resolve("churn");
    try (ApplicationRegistry registry = open(dir)) {
      for (int i = 0; i < 200; i++) {
        registry.register("app-" + i, bytes("s" + i));
        registry.remove("app-" + i);
      }
      now += Duration.ofMinutes(11).toMillis();
      registry.register("app-live", bytes("live"));
      assertEquals(List.of(), registry.removedAmong(List.of("app-0", "app-199")));
    }
    List<String> lines = Files.readAllLines(dir.resolve(ApplicationJournal.FILE), StandardCharsets.US_ASCII);
    assertEquals(1, lines.size(), "only the live application is left: " + lines.size() + " lines");
    try (ApplicationRegistry again = open(dir)) {
      assertTrue(again.isRegistered("app-live"));
      again.register("app-0", bytes("reused after the tombstone expired"));
    }
  }

  @Test
  void aSecretPastTheLimit_isRefusedNamingTheKey_andOneAtTheLimitRegisters() {
    try (ApplicationRegistry registry = open(tmp.resolve("secrets"))) {
      int limit = StateLimits.DEFAULTS.maxSecretBytes();
      ScacheException e = assertThrows(ScacheException.class, () -> registry.register("app-big", new byte[8 << 20]));
      assertEquals(Status.LIMIT_EXCEEDED, e.status());
      assertTrue(e.getMessage().contains(ScacheOptions.MASTER_APPLICATION_SECRET_MAX.key()), e.getMessage());
      assertThrows(ScacheException.class, () -> registry.register("app-big", new byte[limit + 1]));
      assertFalse(registry.isRegistered("app-big"));
      registry.register("app-at-limit", new byte[limit]);
      assertTrue(registry.isRegistered("app-at-limit"));
    }
  }

  @Test
  void applicationsPastTheLimit_areRefused_untilOneIsRemoved() {
    try (ApplicationRegistry registry = new ApplicationRegistry(clock, Duration.ofMinutes(10),
        new StateLimits(32, 2, 1 << 20), Optional.empty(), SkippedRecords.logged())) {
      registry.register("app-1", bytes("one"));
      registry.register("app-2", bytes("two"));
      registry.register("app-2", bytes("two"));
      ScacheException e = assertThrows(ScacheException.class, () -> registry.register("app-3", bytes("three")));
      assertEquals(Status.LIMIT_EXCEEDED, e.status());
      assertTrue(e.getMessage().contains(ScacheOptions.MASTER_APPLICATIONS_MAX.key()), e.getMessage());
      registry.remove("app-1");
      registry.register("app-3", bytes("three"));
    }
  }

  @TempDir
  Path tmp;

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
