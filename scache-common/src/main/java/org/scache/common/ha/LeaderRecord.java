package org.scache.common.ha;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * What the leading master writes at its leader node: its host:port, the id of the ZooKeeper session
 * that owns the (ephemeral) node, and an HMAC-SHA256 keyed with the cluster secret over the node's path,
 * the address and that session id. A daemon follows an address only if the proof is right and the
 * node is owned by the session the proof names, so a record written by anyone without the cluster
 * secret, or a genuine record copied into a node of another session, is not followed.
 *
 * <p>The node holds three lines of UTF-8: the address, {@code session <16 hex digits>} and
 * {@code proof <base64url>}.
 */
public final class LeaderRecord {
  private static final String SESSION = "session ";
  private static final String PROOF = "proof ";
  private static final byte[] CONTEXT = "scache leader record 1".getBytes(StandardCharsets.UTF_8);

  private LeaderRecord() {}

  /** The record of {@code address}, published by the session {@code sessionId} at {@code leaderPath}. */
  public static byte[] signed(String leaderPath, String address, long sessionId, byte[] clusterSecret) {
    if (address.contains("\n")) {
      throw new IllegalArgumentException("a master's address has no line break: " + address);
    }
    String proof = Base64.getUrlEncoder().withoutPadding().encodeToString(
        proof(leaderPath, address, sessionId, clusterSecret));
    return (address + "\n" + SESSION + String.format("%016x", sessionId) + "\n" + PROOF + proof)
        .getBytes(StandardCharsets.UTF_8);
  }

  /** The address a record names, proven or not (for what a master says of the leader on its status page). */
  public static String address(byte[] record) {
    String text = new String(record, StandardCharsets.UTF_8);
    int end = text.indexOf('\n');
    return end < 0 ? text : text.substring(0, end);
  }

  /**
   * The address of a record read from {@code leaderPath}, whose node is owned by the session
   * {@code ephemeralOwner}, if it proves the cluster secret for that session; else why not.
   */
  public static Verdict verify(String leaderPath, byte[] record, long ephemeralOwner, byte[] clusterSecret) {
    String[] lines = new String(record, StandardCharsets.UTF_8).split("\n", -1);
    if (lines.length != 3 || !lines[1].startsWith(SESSION) || !lines[2].startsWith(PROOF)) {
      return Verdict.refused("it carries no proof of the cluster secret");
    }
    long session;
    byte[] given;
    try {
      session = Long.parseUnsignedLong(lines[1].substring(SESSION.length()), 16);
      given = Base64.getUrlDecoder().decode(lines[2].substring(PROOF.length()));
    } catch (IllegalArgumentException e) {
      return Verdict.refused("its session or proof is malformed");
    }
    if (!MessageDigest.isEqual(given, proof(leaderPath, lines[0], session, clusterSecret))) {
      return Verdict.refused("its proof is not made with this cluster's secret");
    }
    if (session != ephemeralOwner) {
      return Verdict.refused("it was signed for ZooKeeper session " + Long.toHexString(session)
          + " but the node belongs to " + (ephemeralOwner == 0 ? "no session" : "session "
          + Long.toHexString(ephemeralOwner)));
    }
    return new Verdict(Optional.of(lines[0]), "");
  }

  private static byte[] proof(String leaderPath, String address, long sessionId, byte[] clusterSecret) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(clusterSecret, "HmacSHA256"));
      mac.update(CONTEXT);
      for (String part : new String[] {leaderPath, address}) {
        byte[] bytes = part.getBytes(StandardCharsets.UTF_8);
        mac.update(ByteBuffer.allocate(4).putInt(bytes.length).array());
        mac.update(bytes);
      }
      mac.update(ByteBuffer.allocate(8).putLong(sessionId).array());
      return mac.doFinal();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is not available in this JVM", e);
    }
  }

  /** A record's address when it proved the cluster secret, else the reason it did not. */
  public record Verdict(Optional<String> address, String refusal) {
    static Verdict refused(String why) {
      return new Verdict(Optional.empty(), why);
    }
  }
}
