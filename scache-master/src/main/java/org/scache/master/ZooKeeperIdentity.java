package org.scache.master;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.server.auth.DigestAuthenticationProvider;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;

/**
 * The ZooKeeper digest identity the masters of a cluster authenticate as, and to which every node
 * they create belongs: {@code scache.master.zookeeper.auth} when set, else {@code scache:<password>}
 * with the password derived from the cluster secret (an HMAC of it), so that masters sharing the
 * cluster secret share the identity and nobody without the secret has it.
 */
final class ZooKeeperIdentity {
  static final String DERIVED_USER = "scache";
  private static final byte[] CONTEXT = "scache zookeeper identity 1".getBytes(StandardCharsets.UTF_8);

  private final String user;
  private final String auth;

  private ZooKeeperIdentity(String auth) {
    int colon = auth.indexOf(':');
    if (colon <= 0 || colon == auth.length() - 1) {
      throw new IllegalArgumentException(ScacheOptions.MASTER_ZOOKEEPER_AUTH.key()
          + " must be user:password (a ZooKeeper digest identity), with neither part empty");
    }
    this.user = auth.substring(0, colon);
    this.auth = auth;
  }

  /** The configured identity, or the one derived from {@code clusterSecret}. */
  static ZooKeeperIdentity of(ScacheConf conf, byte[] clusterSecret) {
    String configured = conf.get(ScacheOptions.MASTER_ZOOKEEPER_AUTH);
    return configured.isEmpty() ? derived(clusterSecret) : new ZooKeeperIdentity(configured);
  }

  static ZooKeeperIdentity derived(byte[] clusterSecret) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(clusterSecret, "HmacSHA256"));
      String password = Base64.getUrlEncoder().withoutPadding().encodeToString(mac.doFinal(CONTEXT));
      return new ZooKeeperIdentity(DERIVED_USER + ":" + password);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is not available in this JVM", e);
    }
  }

  /** What the ZooKeeper client authenticates with (scheme {@code digest}). */
  byte[] authBytes() {
    return auth.getBytes(StandardCharsets.UTF_8);
  }

  /** The identity as it appears in an ACL: {@code digest:user:base64(sha1(user:password))}. */
  Id aclId() {
    try {
      return new Id("digest", DigestAuthenticationProvider.generateDigest(auth));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-1 is not available in this JVM: ZooKeeper digests need it", e);
    }
  }

  @Override
  public String toString() {
    return "digest:" + user;
  }
}
