package org.scache.common.protocol;

import java.util.Arrays;
import java.util.Objects;

/** Registers an application and the secret every later request of it is signed with. */
public record RegisterApplication(String appId, byte[] secret) implements Message, Message.ForApplication {
  public RegisterApplication {
    secret = secret.clone();
  }

  @Override
  public byte[] secret() {
    return secret.clone();
  }

  @Override
  public MessageType type() {
    return MessageType.REGISTER_APPLICATION;
  }

  @Override
  public void write(WireWriter out) {
    out.writeString(appId).writeBytes(secret);
  }

  /** Reads what {@link #write} writes. */
  static RegisterApplication read(WireReader in) throws MalformedMessageException {
    return new RegisterApplication(in.readNonEmptyString("application id"), in.readBytes("secret"));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RegisterApplication r && r.appId.equals(appId) && Arrays.equals(r.secret, secret);
  }

  @Override
  public int hashCode() {
    return Objects.hash(appId, Arrays.hashCode(secret));
  }

  @Override
  public String toString() {
    return "RegisterApplication[appId=" + appId + ", secret=<" + secret.length + " bytes>]";
  }
}
