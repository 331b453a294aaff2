package org.scache.master;

import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.scache.common.Clock;
import org.scache.common.ScacheException;
import org.scache.common.config.ScacheOptions;
import org.scache.common.protocol.Status;

/**
 * Registered applications and their secrets, and a time-limited memory of removed ones so that
 * workers that missed a removal still free the application's blocks. With a store (the state
 * directory, or ZooKeeper) both outlive the master ({@link ApplicationStore}): after a restart or a
 * failover an id stays its owner's.
 */
final class ApplicationRegistry implements AutoCloseable {
  private final Clock clock;
  private final Duration tombstoneTtl;
  private final Map<String, byte[]> secrets = new HashMap<>();
  private final Map<String, Long> removedAt = new HashMap<>();
  private final Optional<ApplicationStore> journal;
  private final StateLimits limits;

  ApplicationRegistry(Clock clock, Duration tombstoneTtl) {
    this(clock, tombstoneTtl, StateLimits.DEFAULTS, Optional.empty(), SkippedRecords.logged());
  }

  /** A registry that keeps its applications in {@code stateDir}, reading back what an earlier master kept there. */
  ApplicationRegistry(Clock clock, Duration tombstoneTtl, Optional<Path> stateDir) {
    this(clock, tombstoneTtl, StateLimits.DEFAULTS,
        stateDir.map(d -> ApplicationJournal.open(d, StateLimits.DEFAULTS, SkippedRecords.logged())),
        SkippedRecords.logged());
  }

  /**
   * A registry within {@code limits} that keeps its applications in {@code store} and reads back what an earlier
   * master kept there; an application whose secret is past the limit is skipped and reported to {@code skipped}.
   */
  ApplicationRegistry(Clock clock, Duration tombstoneTtl, StateLimits limits,
      Optional<? extends ApplicationStore> store, SkippedRecords skipped) {
    this.clock = clock;
    this.tombstoneTtl = tombstoneTtl;
    this.limits = limits;
    this.journal = store.map(ApplicationStore.class::cast);
    journal.ifPresent(j -> j.load(secrets, removedAt));
    secrets.entrySet().removeIf(e -> {
      boolean over = e.getValue().length > limits.maxSecretBytes();
      if (over) {
        skipped.skip("the application store", "application " + e.getKey(), "a secret of " + e.getValue().length
            + " bytes, over " + ScacheOptions.MASTER_APPLICATION_SECRET_MAX.key() + " (" + limits.maxSecretBytes()
            + ")");
      }
      return over;
    });
  }

  /** Applications known, registered and removed (as read back from the state directory too). */
  synchronized int size() {
    return secrets.size() + removedAt.size();
  }

  /** Registers an application; again with the same secret is a no-op, with another is refused. */
  synchronized void register(String appId, byte[] secret) {
    if (secret.length > limits.maxSecretBytes()) {
      throw new ScacheException(Status.LIMIT_EXCEEDED, "the secret of application " + appId + " is " + secret.length
          + " bytes, over the limit of " + limits.maxSecretBytes() + " ("
          + ScacheOptions.MASTER_APPLICATION_SECRET_MAX.key() + ")");
    }
    byte[] known = secrets.get(appId);
    if (known != null && !MessageDigest.isEqual(known, secret)) {
      throw new ScacheException(Status.AUTH_FAILED, "application " + appId + " is registered with another secret");
    }
    if (removedAt.containsKey(appId)) {
      throw new ScacheException(Status.INVALID_ARGUMENT, "application " + appId + " was removed; use a new id");
    }
    if (known == null && secrets.size() >= limits.maxApplications()) {
      throw new ScacheException(Status.LIMIT_EXCEEDED, "application " + appId + " is not registered: "
          + secrets.size() + " applications are, the most allowed (" + ScacheOptions.MASTER_APPLICATIONS_MAX.key()
          + ")");
    }
    if (known == null) {
      journal.ifPresent(j -> j.registered(appId, secret));
      secrets.put(appId, secret.clone());
    }
  }

  synchronized Optional<byte[]> secret(String appId) {
    return Optional.ofNullable(secrets.get(appId)).map(byte[]::clone);
  }

  synchronized boolean isRegistered(String appId) {
    return secrets.containsKey(appId);
  }

  synchronized byte[] requireSecret(String appId) {
    byte[] s = secrets.get(appId);
    if (s == null) {
      throw new ScacheException(Status.UNKNOWN_APPLICATION, "application " + appId + " is not registered");
    }
    return s.clone();
  }

  synchronized boolean remove(String appId) {
    long now = clock.millis();
    journal.ifPresent(j -> j.removed(appId, now));
    removedAt.put(appId, now);
    return secrets.remove(appId) != null;
  }

  /** Those of {@code apps} that have been removed. */
  synchronized List<String> removedAmong(List<String> apps) {
    long cutoff = clock.millis() - tombstoneTtl.toMillis();
    removedAt.entrySet().removeIf(e -> {
      boolean expired = e.getValue() < cutoff;
      if (expired) {
        journal.ifPresent(j -> j.forgotten(e.getKey()));
      }
      return expired;
    });
    journal.ifPresent(j -> j.compact(secrets, removedAt));
    return apps.stream().filter(removedAt::containsKey).toList();
  }

  @Override
  public synchronized void close() {
    journal.ifPresent(ApplicationStore::close);
  }
}
