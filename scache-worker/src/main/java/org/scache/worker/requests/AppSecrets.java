package org.scache.worker.requests;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.scache.common.auth.RequestAuthorizer;

/**
 * The secrets of the applications this worker serves: registered locally (by an embedding such as
 * the YARN auxiliary service) or fetched from the master on first use, then cached.
 */
public final class AppSecrets implements RequestAuthorizer.Secrets {
  private final Map<String, byte[]> known = new ConcurrentHashMap<>();
  private final Function<String, CompletableFuture<byte[]>> fetchFromMaster;

  public AppSecrets(Function<String, CompletableFuture<byte[]>> fetchFromMaster) {
    this.fetchFromMaster = fetchFromMaster;
  }

  public void register(String appId, byte[] secret) {
    known.put(appId, secret.clone());
  }

  void forget(String appId) {
    known.remove(appId);
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
    return fetchFromMaster.apply(appId).thenApply(secret -> {
      known.put(appId, secret);
      return secret;
    });
  }
}
