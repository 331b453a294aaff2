package org.scache.worker;

import java.util.concurrent.CompletableFuture;
import org.scache.common.ScacheException;
import org.scache.common.auth.Credentials;
import org.scache.common.protocol.InboundFrame;
import org.scache.common.protocol.Status;

/**
 * Decides whether a request may touch an application's blocks: it must be signed by that
 * application with its registered secret, or by the SCache daemons with the cluster secret.
 */
final class RequestAuthorizer {
  private final byte[] clusterSecret;
  private final AppSecrets secrets;
  private final WorkerCounters counters;

  RequestAuthorizer(byte[] clusterSecret, AppSecrets secrets, WorkerCounters counters) {
    this.clusterSecret = clusterSecret.clone();
    this.secrets = secrets;
    this.counters = counters;
  }

  /** Completes normally when {@code frame} may act for {@code appId}; else with an AUTH status. */
  CompletableFuture<Void> forApplication(InboundFrame frame, String appId) {
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
    var cached = secrets.cached(appId);
    if (cached.isPresent()) {
      return check(frame, appId, cached.get());
    }
    return secrets.lookup(appId).handle((secret, e) -> {
      if (e != null) {
        ScacheException se = ScacheException.from(e);
        if (se.status().isTransient()) {
          // the master could not be asked (gone, failing over): the caller tries again
          throw new ScacheException(Status.NOT_LEADER, "cannot check the proof of " + appId + " now: the master "
              + "does not answer (" + se.getMessage() + ")");
        }
        counters.authFailures.increment();
        throw se.status() == Status.UNKNOWN_APPLICATION ? se
            : new ScacheException(Status.AUTH_FAILED, "cannot check the proof of " + appId + ": " + se.getMessage());
      }
      return secret;
    }).thenCompose(secret -> check(frame, appId, secret));
  }

  /** Completes normally when {@code frame} is signed with the cluster secret. */
  CompletableFuture<Void> forCluster(InboundFrame frame) {
    if (frame.auth().isEmpty()) {
      return refuse(Status.AUTH_REQUIRED, frame.message().type() + " is for SCache daemons and carries no proof");
    }
    return frame.verify(Credentials.CLUSTER, clusterSecret) ? CompletableFuture.completedFuture(null)
        : refuse(Status.AUTH_FAILED, frame.message().type() + " has a wrong cluster proof");
  }

  private CompletableFuture<Void> check(InboundFrame frame, String appId, byte[] secret) {
    return frame.verify(appId, secret) ? CompletableFuture.completedFuture(null)
        : refuse(Status.AUTH_FAILED, "wrong proof for " + appId);
  }

  private CompletableFuture<Void> refuse(Status status, String message) {
    counters.authFailures.increment();
    return CompletableFuture.failedFuture(new ScacheException(status, message));
  }
}
