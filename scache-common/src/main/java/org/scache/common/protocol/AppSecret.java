package org.scache.common.protocol;

import java.util.Arrays;
import java.util.Objects;

/**
 * The secret of an application, for {@link FetchAppSecret}, and the user it belongs to (empty: none known, the
 * application is its own principal for quotas).
 */
public record AppSecret(byte[] secret, String user) implements Message {
  public AppSecret {
    secret = secret.clone();
    Objects.requireNonNull(user, "user");
  }

  /** The secret of an application of no known user. */
  public AppSecret(byte[] secret) {
    this(secret, "");
  }

  @Override
  public byte[] secret() {
    return secret.clone();
  }

  @Override
  public MessageType type() {
    return MessageType.APP_SECRET;
  }

  @Override
  public void write(WireWriter out) {
    out.writeBytes(secret).writeString(user);
  }

  /** Reads what {@link #write} writes; the user is absent in older masters. */
  static AppSecret read(WireReader in) throws MalformedMessageException {
    byte[] secret = in.readBytes("secret");
    return new AppSecret(secret, in.hasMore() ? in.readString("user") : "");
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof AppSecret a && Arrays.equals(a.secret, secret) && a.user.equals(user);
  }

  @Override
  public int hashCode() {
    return Objects.hash(Arrays.hashCode(secret), user);
  }

  @Override
  public String toString() {
    return "AppSecret[<" + secret.length + " bytes>, user=" + user + "]";
  }
}
