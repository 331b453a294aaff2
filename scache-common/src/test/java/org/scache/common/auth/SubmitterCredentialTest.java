package org.scache.common.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.scache.common.ScacheException;
import org.scache.common.protocol.Status;

class SubmitterCredentialTest {
  private static final byte[] KEY = "the submitter key".getBytes(StandardCharsets.UTF_8);
  private static final long NOW = 1_800_000_000_000L;

  @Test
  void verify_mintedWithTheKeyAndNotExpired_namesItsUser() {
    String credential = SubmitterCredential.mint(KEY, "alice", Instant.ofEpochMilli(NOW).plusSeconds(3600));
    assertEquals("alice", SubmitterCredential.verify(KEY, credential, NOW));
  }

  @Test
  void verify_mintedWithAnotherKey_isRefused() {
    String forged = SubmitterCredential.mint("another key".getBytes(StandardCharsets.UTF_8), "alice",
        Instant.ofEpochMilli(NOW).plusSeconds(3600));
    ScacheException e = assertThrows(ScacheException.class, () -> SubmitterCredential.verify(KEY, forged, NOW));
    assertEquals(Status.AUTH_FAILED, e.status());
    assertTrue(e.getMessage().contains("wrong signature"), e.getMessage());
  }

  @Test
  void verify_userOrExpiryChanged_isRefused() {
    String credential = SubmitterCredential.mint(KEY, "alice", Instant.ofEpochMilli(NOW).plusSeconds(3600));
    String[] parts = credential.split(":");
    assertEquals(Status.AUTH_FAILED, assertThrows(ScacheException.class, () -> SubmitterCredential.verify(KEY,
        "mallory:" + parts[1] + ":" + parts[2], NOW)).status());
    assertEquals(Status.AUTH_FAILED, assertThrows(ScacheException.class, () -> SubmitterCredential.verify(KEY,
        "alice:" + (Long.parseLong(parts[1]) + 86_400) + ":" + parts[2], NOW)).status());
  }

  @Test
  void verify_expired_isRefusedSayingSo() {
    String credential = SubmitterCredential.mint(KEY, "alice", Instant.ofEpochMilli(NOW).minusSeconds(1));
    ScacheException e = assertThrows(ScacheException.class, () -> SubmitterCredential.verify(KEY, credential, NOW));
    assertEquals(Status.AUTH_FAILED, e.status());
    assertTrue(e.getMessage().contains("expired"), e.getMessage());
  }

  @Test
  void verify_malformed_isRefused() {
    for (String bad : new String[] {"", "alice", "alice:x:y", ":1:abc", "a:b:c:d"}) {
      assertEquals(Status.AUTH_FAILED, assertThrows(ScacheException.class,
          () -> SubmitterCredential.verify(KEY, bad, NOW)).status(), bad);
    }
  }
}
