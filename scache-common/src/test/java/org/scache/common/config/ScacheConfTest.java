package org.scache.common.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.scache.common.network.TransportSettings;

/** Unset keys read as their defaults; files, code and system properties override them. */
class ScacheConfTest {

  @Test
  void empty_everyEntry_readsItsParsedDefault() {
    ScacheConf conf = ScacheConf.empty();
    for (ConfigEntry<?> e : ScacheOptions.all()) {
      assertFalse(conf.isSet(e));
      Object expected = e.defaultText().isEmpty() && !e.typeName().equals("string") ? null : e.parse(e.defaultText());
      if (expected != null) {
        assertEquals(expected, conf.get(e), e.key());
      }
    }
  }

  @Test
  void empty_knownDefaults_haveDocumentedValues() {
    ScacheConf conf = ScacheConf.empty();
    assertEquals(17010, conf.get(ScacheOptions.MASTER_PORT));
    assertEquals(17020, conf.get(ScacheOptions.WORKER_PORT));
    assertEquals(1L << 30, conf.get(ScacheOptions.NETWORK_FRAME_PAYLOAD_MAX));
    assertEquals(16 << 20, conf.get(ScacheOptions.NETWORK_FRAME_META_MAX));
    assertEquals(Duration.ofSeconds(60), conf.get(ScacheOptions.CLIENT_REQUEST_TIMEOUT));
    assertEquals(Duration.ofMillis(50), conf.get(ScacheOptions.WORKER_REPORT_INTERVAL));
    assertEquals(false, conf.get(ScacheOptions.WORKER_MEMORY_PRETOUCH));
    assertEquals("", conf.get(ScacheOptions.WORKER_ID));
    assertEquals("localhost:17010", conf.get(ScacheOptions.CLIENT_MASTER_ADDRESS));
  }

  @Test
  void with_override_isReadTypedAndLeavesOriginalUnchanged() {
    ScacheConf base = ScacheConf.empty();
    ScacheConf conf = base.with(ScacheOptions.WORKER_PORT, 18000)
        .with("scache.worker.memory.reserve.bytes", "512m")
        .with(ScacheOptions.CLIENT_RETRY_BACKOFF, "1s")
        .with(ScacheOptions.WORKER_MEMORY_PRETOUCH, true);
    assertEquals(18000, conf.get(ScacheOptions.WORKER_PORT));
    assertEquals(512L << 20, conf.get(ScacheOptions.WORKER_MEMORY_RESERVE));
    assertEquals(Duration.ofSeconds(1), conf.get(ScacheOptions.CLIENT_RETRY_BACKOFF));
    assertTrue(conf.get(ScacheOptions.WORKER_MEMORY_PRETOUCH));
    assertTrue(conf.isSet(ScacheOptions.WORKER_PORT));
    assertFalse(base.isSet(ScacheOptions.WORKER_PORT));
    assertEquals(17020, base.get(ScacheOptions.WORKER_PORT));
  }

  @Test
  void with_durationValue_isReadBackAsThatDuration() {
    ScacheConf conf = ScacheConf.empty().with(ScacheOptions.CLIENT_RETRY_BACKOFF, Duration.ofMillis(2500));
    assertEquals(Duration.ofMillis(2500), conf.get(ScacheOptions.CLIENT_RETRY_BACKOFF));
  }

  @Test
  void get_badOverride_throwsNamingTheKey() {
    ScacheConf conf = ScacheConf.of(Map.of("scache.master.rpc.port", "eighty"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> conf.get(ScacheOptions.MASTER_PORT));
    assertTrue(e.getMessage().contains("scache.master.rpc.port"), e.getMessage());
    assertTrue(e.getMessage().contains("eighty"), e.getMessage());
  }

  @Test
  void withSystemProperties_scacheProperties_overrideValuesAndOthersAreIgnored() {
    String port = ScacheOptions.WORKER_PORT.key();
    String timeout = ScacheOptions.CLIENT_REQUEST_TIMEOUT.key();
    System.setProperty(port, "17999");
    System.setProperty(timeout, "2m");
    System.setProperty("notscache.worker.rpc.port", "1");
    try {
      ScacheConf conf = ScacheConf.of(Map.of(port, "17500", ScacheOptions.MASTER_PORT.key(), "17011"))
          .withSystemProperties();
      assertEquals(17999, conf.get(ScacheOptions.WORKER_PORT));
      assertEquals(Duration.ofMinutes(2), conf.get(ScacheOptions.CLIENT_REQUEST_TIMEOUT));
      assertEquals(17011, conf.get(ScacheOptions.MASTER_PORT));
      assertFalse(conf.asMap().containsKey("notscache.worker.rpc.port"));
    } finally {
      System.clearProperty(port);
      System.clearProperty(timeout);
      System.clearProperty("notscache.worker.rpc.port");
    }
  }

  @Test
  void load_propertiesFile_readsValues(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("scache.properties");
    Files.writeString(file, "# comment\nscache.worker.rpc.port = 17555\nscache.worker.memory.reserve.bytes=2g\n"
        + "scache.worker.identity.id=w\\u00fc\n", StandardCharsets.UTF_8);
    ScacheConf conf = ScacheConf.load(file);
    assertEquals(17555, conf.get(ScacheOptions.WORKER_PORT));
    assertEquals(2L << 30, conf.get(ScacheOptions.WORKER_MEMORY_RESERVE));
    assertEquals("w\u00fc", conf.get(ScacheOptions.WORKER_ID));
    assertEquals(3, conf.asMap().size());
  }

  @Test
  void asMap_isUnmodifiable() {
    ScacheConf conf = ScacheConf.empty().with("scache.a.b.c", "1");
    assertThrows(UnsupportedOperationException.class, () -> conf.asMap().put("scache.x.y.z", "2"));
  }

  @Test
  void options_keysAreUniqueAndFollowTheNamingScheme() {
    Set<String> keys = new HashSet<>();
    for (ConfigEntry<?> e : ScacheOptions.all()) {
      assertTrue(keys.add(e.key()), "duplicate key " + e.key());
      assertTrue(e.key().matches("scache\\.[a-z]+\\.[a-z]+(\\.[a-z]+)+"), e.key());
      assertFalse(e.doc().isBlank(), e.key() + " has no doc");
    }
    assertThrows(UnsupportedOperationException.class, () -> ScacheOptions.all().add(ScacheOptions.WORKER_PORT));
  }

  @Test
  void optionSet_keyOutsideItsPattern_isRejected() {
    OptionSet set = new OptionSet(ConfigEntry.KEY_PATTERN, "scache.<role>.<subsystem>.<name>");
    assertThrows(IllegalArgumentException.class, () -> set.intEntry("scache.port", 1, "d"));
    assertThrows(IllegalArgumentException.class, () -> set.intEntry("other.worker.rpc.port", 1, "d"));
    assertEquals(List.of(), set.all());
  }

  @Test
  void optionSet_badDefault_isRejectedAtDeclaration() {
    OptionSet set = new OptionSet("x\\.[a-z]+", "x.<name>");
    assertThrows(IllegalArgumentException.class, () -> set.intEntry("x.port", 1, "d").parse("many"));
    assertThrows(IllegalArgumentException.class, () -> set.fraction("x.share", 1.5, "d"));
  }

  @Test
  void transportSettings_fromConf_readsNetworkEntries() {
    TransportSettings s = TransportSettings.from(ScacheConf.empty()
        .with(ScacheOptions.NETWORK_FRAME_PAYLOAD_MAX, "64m").with(ScacheOptions.NETWORK_CONNECT_TIMEOUT, "250ms"));
    assertEquals(64L << 20, s.maxPayloadLength());
    assertEquals(Duration.ofMillis(250), s.connectTimeout());
    assertEquals(16 << 20, s.maxMetaLength());
  }
}
