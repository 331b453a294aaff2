package org.scache.worker.cluster;

import java.util.Objects;

/** What the master knows of an application: its secret, and its user (empty: none known). */
public record KnownApplication(byte[] secret, String user) {
  public KnownApplication {
    secret = secret.clone();
    Objects.requireNonNull(user, "user");
  }

  @Override
  public byte[] secret() {
    return secret.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof KnownApplication k && java.util.Arrays.equals(k.secret, secret) && k.user.equals(user);
  }

  @Override
  public int hashCode() {
    return Objects.hash(java.util.Arrays.hashCode(secret), user);
  }

  @Override
  public String toString() {
    return "KnownApplication[<" + secret.length + " bytes>, user=" + user + "]";
  }
}
