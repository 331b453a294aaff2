package org.scache.common.protocol;

import java.util.Arrays;
import java.util.Objects;

/**
 * Worker to master (cluster principal only): the cluster vouches that application {@code appId} runs, for
 * {@code user}, with {@code secret} (its job's shuffle secret; empty when the node does not know it). A YARN
 * NodeManager's worker sends it for every application the NodeManager starts a container of.
 */
public record VouchApplication(String appId, String user, byte[] secret) implements Message {
  public VouchApplication {
    Objects.requireNonNull(appId, "appId");
    Objects.requireNonNull(user, "user");
    secret = secret.clone();
  }

  @Override
  public byte[] secret() {
    return secret.clone();
  }

  @Override
  public MessageType type() {
    return MessageType.VOUCH_APPLICATION;
  }

  @Override
  public void write(WireWriter out) {
    out.writeString(appId).writeString(user).writeBytes(secret);
  }

  /** Reads what {@link #write} writes. */
  static VouchApplication read(WireReader in) throws MalformedMessageException {
    return new VouchApplication(in.readNonEmptyString("application id"), in.readNonEmptyString("user"),
        in.readBytes("secret"));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof VouchApplication v && v.appId.equals(appId) && v.user.equals(user)
        && Arrays.equals(v.secret, secret);
  }

  @Override
  public int hashCode() {
    return Objects.hash(appId, user, Arrays.hashCode(secret));
  }

  @Override
  public String toString() {
    return "VouchApplication[appId=" + appId + ", user=" + user + ", secret=<" + secret.length + " bytes>]";
  }
}
