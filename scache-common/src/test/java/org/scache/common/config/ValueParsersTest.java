package org.scache.common.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Sizes, durations, booleans and addresses parse as documented; bad values name their key. */
class ValueParsersTest {

  @ParameterizedTest
  @CsvSource({
      "4096, 4096",
      "0, 0",
      "64k, 65536",
      "64K, 65536",
      "512m, 536870912",
      "1g, 1073741824",
      "1gb, 1073741824",
      "1GiB, 1073741824",
      "1kb, 1024",
      "2t, 2199023255552",
      "' 8 k ', 8192",
      "100b, 100",
  })
  void bytes_numberWithOptionalBinaryUnit_parses(String text, long expected) {
    assertEquals(expected, ValueParsers.bytes(text));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "k", "abc", "1.5g", "-1", "1x", "1 g b", "1gig", "99999999999999999999",
      "9999999999t"})
  void bytes_badValue_throwsIllegalArgument(String text) {
    assertThrows(IllegalArgumentException.class, () -> ValueParsers.bytes(text));
  }

  @ParameterizedTest
  @CsvSource({
      "500ms, PT0.5S",
      "5s, PT5S",
      "2m, PT2M",
      "1h, PT1H",
      "1d, PT24H",
      "250, PT0.25S",
      "0, PT0S",
      "' 30 S ', PT30S",
  })
  void duration_numberWithOptionalUnit_parsesAndPlainNumberIsMillis(String text, Duration expected) {
    assertEquals(expected, ValueParsers.duration(text));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "s", "5 sec", "-5s", "1.5s", "5us", "1w"})
  void duration_badValue_throwsIllegalArgument(String text) {
    assertThrows(IllegalArgumentException.class, () -> ValueParsers.duration(text));
  }

  @ParameterizedTest
  @CsvSource({"true, true", "YES, true", "on, true", "false, false", "no, false", "Off, false"})
  void bool_wordsForTrueAndFalse_parse(String text, boolean expected) {
    assertEquals(expected, ValueParsers.bool(text));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "1", "maybe"})
  void bool_otherWords_throwIllegalArgument(String text) {
    assertThrows(IllegalArgumentException.class, () -> ValueParsers.bool(text));
  }

  @ParameterizedTest
  @ValueSource(strings = {"localhost:17010", "10.0.0.1:1", "[::1]:65535", "host-a.example:80"})
  void hostPort_validAddress_isReturnedUnchanged(String text) {
    assertSame(text, ValueParsers.hostPort(text));
  }

  @ParameterizedTest
  @ValueSource(strings = {"localhost", ":80", "host:", "host:0", "host:65536", "host:abc", "host:-1"})
  void hostPort_badAddress_throwsIllegalArgument(String text) {
    assertThrows(IllegalArgumentException.class, () -> ValueParsers.hostPort(text));
  }

  @ParameterizedTest
  @ValueSource(strings = {"lots", "1.5g", "-1"})
  void entryParse_badSize_namesKeyTypeAndValue(String text) {
    ConfigEntry<Long> entry = ScacheOptions.NETWORK_FRAME_PAYLOAD_MAX;
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> entry.parse(text));
    assertTrue(e.getMessage().contains(entry.key()), e.getMessage());
    assertTrue(e.getMessage().contains("bytes"), e.getMessage());
    assertTrue(e.getMessage().contains("'" + text + "'"), e.getMessage());
    assertTrue(e.getCause() != null);
  }

  @ParameterizedTest
  @ValueSource(strings = {"soon", "5 minutes", "106751991167301d"})
  void entryParse_badDuration_namesKey(String text) {
    ConfigEntry<Duration> entry = ScacheOptions.CLIENT_REQUEST_TIMEOUT;
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> entry.parse(text));
    assertTrue(e.getMessage().contains("scache.client.request.timeout"), e.getMessage());
  }

  @ParameterizedTest
  @ValueSource(strings = {"many", "1.5", "99999999999"})
  void entryParse_badInt_namesKey(String text) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ScacheOptions.WORKER_PORT.parse(text));
    assertTrue(e.getMessage().contains("scache.worker.rpc.port"), e.getMessage());
  }

  @ParameterizedTest
  @CsvSource({"' 64m ', 67108864", "'1g\t', 1073741824"})
  void entryParse_surroundingWhitespace_isTrimmed(String text, long expected) {
    assertEquals(expected, ScacheOptions.WORKER_MEMORY_RESERVE.parse(text));
  }
}
