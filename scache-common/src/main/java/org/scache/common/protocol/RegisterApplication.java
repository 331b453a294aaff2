package org.scache.common.protocol;

import java.util.Arrays;
import java.util.Objects;

/**
 * Registers an application and the secret every later request of it is signed with; {@code credential} is a
 * submitter credential naming the application's user (empty: none), for applications no cluster node vouches for.
 */
public record RegisterApplication(String appId, byte[] secret, String credential)
    implements Message, Message.ForApplication {
  public RegisterApplication {
    secret = secret.clone();
    Objects.requireNonNull(credential, "credential");
  }

  /** A registration without a submitter credential. */
  public RegisterApplication(String appId, byte[] secret) {
    this(appId, secret, "");
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
    out.writeString(appId).writeBytes(secret).writeString(credential);
  }

  /** Reads what {@link #write} writes; the credential is absent in older senders. */
  static RegisterApplication read(WireReader in) throws MalformedMessageException {
    String appId = in.readNonEmptyString("application id");
    byte[] secret = in.readBytes("secret");
    return new RegisterApplication(appId, secret, in.hasMore() ? in.readString("submitter credential") : "");
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RegisterApplication r && r.appId.equals(appId) && Arrays.equals(r.secret, secret)
        && r.credential.equals(credential);
  }

  @Override
  public int hashCode() {
    return Objects.hash(appId, Arrays.hashCode(secret), credential);
  }

  @Override
  public String toString() {
    return "RegisterApplication[appId=" + appId + ", secret=<" + secret.length + " bytes>, credential=<"
        + credential.length() + " chars>]";
  }
}
