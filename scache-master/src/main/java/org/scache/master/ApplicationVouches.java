package org.scache.master;

import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.scache.common.Clock;
import org.scache.common.ScacheException;
import org.scache.common.protocol.Status;

/**
 * The applications the cluster vouched for (a NodeManager's worker announced each, with its user and, when the
 * node knows it, its job's secret), and the registrations waiting for their announcement. A vouch is kept until
 * its application is removed, or for {@link #KEPT_FOR} (most applications a NodeManager announces never use
 * SCache), at most {@link #MAX_KEPT} of them. Thread-safe.
 */
final class ApplicationVouches {
  /** How long a vouch is kept for an application that has not been removed. */
  static final Duration KEPT_FOR = Duration.ofDays(1);
  /** Vouches kept at most; the oldest goes first. */
  static final int MAX_KEPT = 100_000;
  /** Registrations waiting for a vouch at once, at most. */
  static final int MAX_WAITING = 1024;

  /** What the cluster said of an application: its user, and its secret (empty: not known to the node). */
  record Vouch(String user, byte[] secret) {
    /** Whether {@code registered} is the secret the cluster vouched for, or the cluster did not know it. */
    boolean allows(byte[] registered) {
      return secret.length == 0 || MessageDigest.isEqual(secret, registered);
    }
  }

  private record Kept(Vouch vouch, long atMillis) {}

  private final Clock clock;
  private final LinkedHashMap<String, Kept> vouched = new LinkedHashMap<>();
  private final Map<String, List<CompletableFuture<Vouch>>> waiting = new HashMap<>();
  private int waitingCount;

  ApplicationVouches(Clock clock) {
    this.clock = clock;
  }

  /**
   * The cluster vouches for {@code appId}: a later vouch keeps the first user, and adds the secret when the first
   * had none. Registrations waiting for it go on.
   */
  void vouch(String appId, String user, byte[] secret) {
    List<CompletableFuture<Vouch>> woken;
    Vouch now;
    synchronized (this) {
      long at = clock.millis();
      Kept before = vouched.remove(appId);
      now = before == null ? new Vouch(user, secret.clone())
          : new Vouch(before.vouch().user(), before.vouch().secret().length > 0 ? before.vouch().secret()
              : secret.clone());
      vouched.put(appId, new Kept(now, at));
      forgetOld(at);
      woken = waiting.remove(appId);
      if (woken != null) {
        waitingCount -= woken.size();
      }
    }
    if (woken != null) {
      woken.forEach(f -> f.complete(now));
    }
  }

  synchronized Optional<Vouch> of(String appId) {
    return Optional.ofNullable(vouched.get(appId)).map(Kept::vouch);
  }

  /**
   * Completes with the vouch for {@code appId} when it comes within {@code wait}; else fails with a TIMEOUT
   * (the caller says what it means), or at once with LIMIT_EXCEEDED when {@link #MAX_WAITING} wait already.
   */
  CompletableFuture<Vouch> await(String appId, Duration wait) {
    CompletableFuture<Vouch> f = new CompletableFuture<>();
    synchronized (this) {
      Kept known = vouched.get(appId);
      if (known != null) {
        return CompletableFuture.completedFuture(known.vouch());
      }
      if (waitingCount >= MAX_WAITING) {
        return CompletableFuture.failedFuture(new ScacheException(Status.LIMIT_EXCEEDED, MAX_WAITING
            + " registrations wait for the cluster to vouch for their applications; " + appId + " is refused"));
      }
      waiting.computeIfAbsent(appId, a -> new ArrayList<>()).add(f);
      waitingCount++;
    }
    f.orTimeout(wait.toMillis(), TimeUnit.MILLISECONDS).whenComplete((v, e) -> {
      if (e != null) {
        synchronized (this) {
          List<CompletableFuture<Vouch>> list = waiting.get(appId);
          if (list != null && list.remove(f)) {
            waitingCount--;
            if (list.isEmpty()) {
              waiting.remove(appId);
            }
          }
        }
      }
    });
    return f;
  }

  /** The application was removed: its vouch is dropped. */
  synchronized void forget(String appId) {
    vouched.remove(appId);
  }

  synchronized int size() {
    return vouched.size();
  }

  private void forgetOld(long nowMillis) {
    long cutoff = nowMillis - KEPT_FOR.toMillis();
    Iterator<Kept> oldestFirst = vouched.values().iterator();
    while (oldestFirst.hasNext()) {
      Kept k = oldestFirst.next();
      if (k.atMillis() >= cutoff && vouched.size() <= MAX_KEPT) {
        break;
      }
      oldestFirst.remove();
    }
  }
}
