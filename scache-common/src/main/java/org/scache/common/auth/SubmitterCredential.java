package org.scache.common.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.Base64;
import org.scache.common.ScacheException;
import org.scache.common.protocol.Status;

/**
 * A credential an operator hands a trusted submitter, for applications no cluster node vouches for (Spark on a
 * standalone cluster): {@code user:expiry:mac}, where expiry is in seconds since the epoch and mac the
 * HMAC-SHA256, keyed with the master's submitter secret, of {@code user|expiry} (base64url, unpadded). The master
 * registers an application that carries one as the user it names, until it expires.
 */
public final class SubmitterCredential {
  private SubmitterCredential() {}

  /** A credential for {@code user} until {@code expiry}, signed with {@code submitterSecret}. */
  public static String mint(byte[] submitterSecret, String user, Instant expiry) {
    if (user.isEmpty() || user.contains(":") || user.contains("|")) {
      throw new IllegalArgumentException("a submitter's user must be non-empty, without ':' or '|': " + user);
    }
    long seconds = expiry.getEpochSecond();
    return user + ":" + seconds + ":" + mac(submitterSecret, user, seconds);
  }

  /**
   * The user {@code credential} names, when it is signed with {@code submitterSecret} and not expired at
   * {@code nowMillis}; AUTH_FAILED otherwise, with why (never the expected signature).
   */
  public static String verify(byte[] submitterSecret, String credential, long nowMillis) {
    String[] parts = credential.split(":", -1);
    if (parts.length != 3 || parts[0].isEmpty()) {
      throw refused("is not of the form user:expiry:signature");
    }
    long expiry;
    try {
      expiry = Long.parseLong(parts[1]);
    } catch (NumberFormatException e) {
      throw refused("has an expiry that is not a number");
    }
    byte[] expected = mac(submitterSecret, parts[0], expiry).getBytes(StandardCharsets.US_ASCII);
    if (!MessageDigest.isEqual(expected, parts[2].getBytes(StandardCharsets.US_ASCII))) {
      throw refused("of user " + parts[0] + " has a wrong signature");
    }
    if (expiry * 1000 <= nowMillis) {
      throw refused("of user " + parts[0] + " expired at " + Instant.ofEpochSecond(expiry));
    }
    return parts[0];
  }

  private static String mac(byte[] submitterSecret, String user, long expirySeconds) {
    if (submitterSecret.length == 0) {
      throw new IllegalArgumentException("the submitter secret must not be empty");
    }
    HmacSha256 hmac = new HmacSha256();
    hmac.init(submitterSecret);
    hmac.update((user + "|" + expirySeconds).getBytes(StandardCharsets.UTF_8));
    return Base64.getUrlEncoder().withoutPadding().encodeToString(hmac.doFinal());
  }

  private static ScacheException refused(String why) {
    return new ScacheException(Status.AUTH_FAILED, "the submitter credential " + why
        + " (scache.client.submitter.credential; the master checks it with scache.security.submitter.secret)");
  }
}
