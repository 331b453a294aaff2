package org.scache.common.protocol;

import java.util.Arrays;

/** The secret of an application, for {@link FetchAppSecret}. */
public record AppSecret(byte[] secret) implements Message {
  public AppSecret {
    secret = secret.clone();
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
    out.writeBytes(secret);
  }

  /** Reads what {@link #write} writes. */
  static AppSecret read(WireReader in) throws MalformedMessageException {
    return new AppSecret(in.readBytes("secret"));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof AppSecret a && Arrays.equals(a.secret, secret);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(secret);
  }

  @Override
  public String toString() {
    return "AppSecret[<" + secret.length + " bytes>]";
  }
}
