package org.scache.worker.requests;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.scache.common.QuotaOwner;
import org.scache.common.auth.RequestAuthorizer;
import org.scache.worker.cluster.KnownApplication;

/**
 * The secrets of the applications this worker serves, and their users: registered locally (by an embedding such
 * as the YARN auxiliary service) or fetched from the master on first use, then cached. An application's user is
 * who its quotas on this worker are counted against ({@link #ownerOf}).
 */
public final class AppSecrets implements RequestAuthorizer.Secrets {
  private final Map<String, byte[]> known = new ConcurrentHashMap<>();
  private final Map<String, String> users = new ConcurrentHashMap<>();
  private final Function<String, CompletableFuture<KnownApplication>> fetchFromMaster;

  /** Secrets fetched from the master without their users. */
  public AppSecrets(Function<String, CompletableFuture<byte[]>> fetchFromMaster) {
    this.fetchFromMaster = app -> fetchFromMaster.apply(app).thenApply(s -> new KnownApplication(s, ""));
  }

  /** {@code withUsers} only tells this constructor from the public one, which erases to the same signature. */
  private AppSecrets(Function<String, CompletableFuture<KnownApplication>> fetchFromMaster, boolean withUsers) {
    this.fetchFromMaster = fetchFromMaster;
  }

  /** Secrets fetched from the master with their users. */
  public static AppSecrets withUsers(Function<String, CompletableFuture<KnownApplication>> fetchFromMaster) {
    return new AppSecrets(fetchFromMaster, true);
  }

  public void register(String appId, byte[] secret) {
    known.put(appId, secret.clone());
  }

  /** The application's user, as the cluster knows it (empty: none). */
  public void knowUser(String appId, String user) {
    if (!user.isEmpty()) {
      users.put(appId, user);
    }
  }

  void forget(String appId) {
    known.remove(appId);
    users.remove(appId);
  }

  /** Who the quotas of {@code appId} are counted against: its user when known here, else itself. */
  public String ownerOf(String appId) {
    return QuotaOwner.of(appId, users.getOrDefault(appId, ""));
  }

  @Override
  public Optional<byte[]> known(String appId) {
    return Optional.ofNullable(known.get(appId));
  }

  /** The application's secret, from the cache or the master. */
  @Override
  public CompletableFuture<byte[]> lookup(String appId) {
    byte[] s = known.get(appId);
    if (s != null) {
      return CompletableFuture.completedFuture(s);
    }
    return fetchFromMaster.apply(appId).thenApply(app -> {
      knowUser(appId, app.user());
      byte[] secret = app.secret();
      known.put(appId, secret);
      return secret;
    });
  }
}
