package org.scache.common.auth;

import java.util.Arrays;
import java.util.Objects;

/**
 * Who signs a request and with which secret: an application (principal = its id, secret = its
 * registered secret, e.g. the Hadoop job token) or the SCache daemons themselves ({@link #CLUSTER}).
 */
public final class Credentials {
  /** The principal name the SCache daemons use among themselves, signed with the cluster secret. */
  public static final String CLUSTER = "";

  private final String principal;
  private final byte[] secret;

  private Credentials(String principal, byte[] secret) {
    this.principal = Objects.requireNonNull(principal, "principal");
    this.secret = secret.clone();
    if (this.secret.length == 0) {
      throw new IllegalArgumentException("secret of " + describe(principal) + " must not be empty");
    }
  }

  public static Credentials application(String appId, byte[] secret) {
    if (appId.isEmpty()) {
      throw new IllegalArgumentException("application id must not be empty");
    }
    return new Credentials(appId, secret);
  }

  public static Credentials cluster(byte[] clusterSecret) {
    return new Credentials(CLUSTER, clusterSecret);
  }

  public String principal() {
    return principal;
  }

  public boolean isCluster() {
    return principal.equals(CLUSTER);
  }

  byte[] secret() {
    return secret;
  }

  public byte[] secretCopy() {
    return secret.clone();
  }

  /** Whether this secret equals {@code other}, compared in constant time. */
  public boolean secretEquals(byte[] other) {
    return java.security.MessageDigest.isEqual(secret, other);
  }

  static String describe(String principal) {
    return principal.equals(CLUSTER) ? "the cluster" : "application " + principal;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Credentials c && c.principal.equals(principal) && Arrays.equals(c.secret, secret);
  }

  @Override
  public int hashCode() {
    return principal.hashCode();
  }

  @Override
  public String toString() {
    return "Credentials[" + describe(principal) + "]";
  }
}
