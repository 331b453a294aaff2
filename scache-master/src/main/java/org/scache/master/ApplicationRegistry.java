package org.scache.master;

import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.scache.common.Clock;
import org.scache.common.QuotaOwner;
import org.scache.common.ScacheException;
import org.scache.common.config.ScacheOptions;
import org.scache.common.protocol.Status;

/**
 * Registered applications and their secrets, and a time-limited memory of removed ones so that
 * workers that missed a removal still free the application's blocks. With a store (the state
 * directory, or ZooKeeper) both outlive the master ({@link ApplicationStore}): after a restart or a
 * failover an id stays its owner's. Each application may have a user, who its quotas are counted against.
 */
final class ApplicationRegistry implements AutoCloseable {
  private final Clock clock;
  private final Duration tombstoneTtl;
  private final Map<String, byte[]> secrets = new HashMap<>();
  private final Map<String, Long> removedAt = new HashMap<>();
  private final Optional<ApplicationStore> journal;
  private final StateLimits limits;
  /**
   * The user of each registered application that has one (vouched for by the cluster, or named by a submitter
   * credential), kept in memory only: after a restart an application read back is its own user until the
   * cluster vouches for it again. Read without the registry's lock by the quotas.
   */
  private final Map<String, String> users = new ConcurrentHashMap<>();
  private final Map<String, Integer> liveByUser = new HashMap<>();
  private int maxPerUser = Integer.MAX_VALUE;

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

  /** At most {@code max} applications of one user registered at once. */
  ApplicationRegistry limitPerUser(int max) {
    this.maxPerUser = max > 0 ? max : Integer.MAX_VALUE;
    return this;
  }

  /** Registers an application; again with the same secret is a no-op, with another is refused. */
  synchronized void register(String appId, byte[] secret) {
    register(appId, secret, "");
  }

  /**
   * Registers an application of {@code user} (empty: none known); again with the same secret is a no-op, with
   * another is refused, and so is one more application of a user that has its limit of them.
   */
  synchronized void register(String appId, byte[] secret, String user) {
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
      if (!user.isEmpty() && liveByUser.getOrDefault(user, 0) >= maxPerUser) {
        throw new ScacheException(Status.LIMIT_EXCEEDED, "user " + user + " has " + maxPerUser + " applications "
            + "registered, its limit (scache.master.applications.per.user.max); " + appId + " is refused until one "
            + "is removed");
      }
      journal.ifPresent(j -> j.registered(appId, secret));
      secrets.put(appId, secret.clone());
      attachUser(appId, user);
    }
  }

  /** Makes {@code user} the user of registered {@code appId}, unless it has one already. */
  synchronized void attachUser(String appId, String user) {
    if (!user.isEmpty() && secrets.containsKey(appId) && users.putIfAbsent(appId, user) == null) {
      liveByUser.merge(user, 1, Integer::sum);
    }
  }

  /** The user of {@code appId}, empty when none is known. */
  String userOf(String appId) {
    return users.getOrDefault(appId, "");
  }

  /** Who the quotas of {@code appId} are counted against ({@link QuotaOwner}): its user, or itself. */
  String ownerOf(String appId) {
    return QuotaOwner.of(appId, userOf(appId));
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
    String user = users.remove(appId);
    if (user != null) {
      liveByUser.computeIfPresent(user, (u, n) -> n <= 1 ? null : n - 1);
    }
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
