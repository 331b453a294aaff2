package org.scache.common.auth;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.scache.common.ScacheException;
import org.scache.common.protocol.InboundFrame;
import org.scache.common.protocol.MaySend;
import org.scache.common.protocol.Message;
import org.scache.common.protocol.RegisterApplication;
import org.scache.common.protocol.Status;

/**
 * Decides whether a request's sender may send it, as its type declares ({@link MaySend}): a daemon
 * signs with the cluster secret, an application with its own secret, bound to the connection
 * ({@link InboundFrame#verify}). The master and the workers use this one class; they differ only in
 * where an application's secret comes from ({@link Secrets}). A refusal fails the future with
 * AUTH_REQUIRED (no proof), AUTH_FAILED (a wrong one), UNKNOWN_APPLICATION, or NOT_LEADER when the
 * secret cannot be had now (the caller tries again).
 */
public final class RequestAuthorizer {
  /** Where the secrets of applications come from. */
  public interface Secrets {
    /** The secret of {@code appId} when it is known here without asking anyone. */
    Optional<byte[]> known(String appId);

    /** The secret of {@code appId}, asking for it if needed; fails with UNKNOWN_APPLICATION if none is registered. */
    CompletableFuture<byte[]> lookup(String appId);
  }

  private final byte[] clusterSecret;
  private final Secrets secrets;
  private final Runnable onRefusal;

  /** @param onRefusal told of every refused request (a counter) */
  public RequestAuthorizer(byte[] clusterSecret, Secrets secrets, Runnable onRefusal) {
    this.clusterSecret = clusterSecret.clone();
    this.secrets = secrets;
    this.onRefusal = onRefusal;
  }

  /**
   * Completes normally when the frame's sender may send it. Requests whose holder only the role
   * knows ({@link MaySend#HOLDER}) and answers sent as requests pass: the role checks the one and
   * refuses the other.
   */
  public CompletableFuture<Void> authorize(InboundFrame frame) {
    Message m = frame.message();
    try {
      return switch (m.type().maySend()) {
        case CLUSTER -> forCluster(frame);
        case APPLICATION_OR_CLUSTER -> forApplication(frame, ((Message.ForApplication) m).appId());
        case REGISTERING_APPLICATION -> registering(frame, (RegisterApplication) m);
        case HOLDER, ANYONE, NOBODY -> CompletableFuture.completedFuture(null);
      };
    } catch (ScacheException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /** Completes normally when {@code frame} may act for {@code appId}: signed by it, or by a daemon. */
  public CompletableFuture<Void> forApplication(InboundFrame frame, String appId) {
    if (frame.auth().isEmpty()) {
      return refuse(Status.AUTH_REQUIRED, frame.message().type() + " for " + appId + " carries no proof");
    }
    String principal = frame.auth().get().principal();
    if (principal.equals(Credentials.CLUSTER)) {
      return forCluster(frame);
    }
    if (!principal.equals(appId)) {
      return refuse(Status.AUTH_FAILED, "a request signed by " + principal + " cannot act for " + appId);
    }
    Optional<byte[]> known = secrets.known(appId);
    if (known.isPresent()) {
      return check(frame, appId, known.get());
    }
    CompletableFuture<byte[]> lookup;
    try {
      lookup = secrets.lookup(appId);
    } catch (RuntimeException e) {
      lookup = CompletableFuture.failedFuture(e);
    }
    return lookup.handle((secret, e) -> {
      if (e == null) {
        return secret;
      }
      ScacheException se = ScacheException.from(e);
      if (se.status().isTransient()) {
        // the secret's keeper cannot be asked now (gone, failing over): the caller tries again
        throw new ScacheException(Status.NOT_LEADER, "cannot check the proof of " + appId + " now: "
            + se.getMessage());
      }
      onRefusal.run();
      throw se.status() == Status.UNKNOWN_APPLICATION ? se
          : new ScacheException(Status.AUTH_FAILED, "cannot check the proof of " + appId + ": " + se.getMessage());
    }).thenCompose(secret -> check(frame, appId, secret));
  }

  /** Completes normally when {@code frame} is signed with the cluster secret. */
  public CompletableFuture<Void> forCluster(InboundFrame frame) {
    if (frame.auth().isEmpty()) {
      return refuse(Status.AUTH_REQUIRED, frame.message().type() + " is for SCache daemons and carries no proof");
    }
    return isCluster(frame) ? CompletableFuture.completedFuture(null)
        : refuse(Status.AUTH_FAILED, frame.message().type() + " has a wrong cluster proof");
  }

  /** An application registers: the frame must be signed with the secret it registers, or by a daemon. */
  private CompletableFuture<Void> registering(InboundFrame frame, RegisterApplication r) {
    if (r.secret().length == 0) {
      return CompletableFuture.failedFuture(new ScacheException(Status.INVALID_ARGUMENT, "application "
          + r.appId() + " registers an empty secret"));
    }
    if (isCluster(frame) || frame.verify(r.appId(), r.secret())) {
      return CompletableFuture.completedFuture(null);
    }
    return refuse(frame.auth().isEmpty() ? Status.AUTH_REQUIRED : Status.AUTH_FAILED,
        "REGISTER_APPLICATION must be signed with the secret it registers");
  }

  private boolean isCluster(InboundFrame frame) {
    return frame.auth().isPresent() && frame.auth().get().principal().equals(Credentials.CLUSTER)
        && frame.verify(Credentials.CLUSTER, clusterSecret);
  }

  private CompletableFuture<Void> check(InboundFrame frame, String appId, byte[] secret) {
    return frame.verify(appId, secret) ? CompletableFuture.completedFuture(null)
        : refuse(Status.AUTH_FAILED, "wrong proof for " + appId);
  }

  private CompletableFuture<Void> refuse(Status status, String message) {
    onRefusal.run();
    return CompletableFuture.failedFuture(new ScacheException(status, message));
  }
}
