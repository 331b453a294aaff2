package org.scache.worker.master;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.scache.common.ScacheException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells the master of the applications this worker's node starts (a YARN NodeManager announces each, its user
 * and, for a job that names the service, its job's secret), so that the master lets them register
 * ({@code scache.security.applications.vouched}). Each application is announced once without its secret and
 * once with it; an announcement the master does not acknowledge is sent again, {@link #TRIES} times in all,
 * a second apart; and every application still running here is announced again whenever the worker registers
 * with a master ({@link #announceAgain}), so that a master that restarted, or a new leader, knows them and
 * their users (the master keeps vouches in memory only).
 */
public final class ApplicationVouching {
  private static final Logger LOG = LoggerFactory.getLogger(ApplicationVouching.class);
  static final int TRIES = 5;

  private final MasterCalls master;
  private final ScheduledExecutorService timers;
  /** What was announced of each application running here: its user, and its secret when known (else empty). */
  private final Map<String, Announcement> announced = new ConcurrentHashMap<>();

  private record Announcement(String user, byte[] secret) {
    boolean withSecret() {
      return secret.length > 0;
    }
  }

  public ApplicationVouching(MasterCalls master, ScheduledExecutorService timers) {
    this.master = master;
    this.timers = timers;
  }

  /** Announces {@code appId} of {@code user} with {@code secret} (empty: not known here), unless already done. */
  public void vouch(String appId, String user, byte[] secret) {
    Announcement now = new Announcement(user, secret.clone());
    boolean[] news = {false};
    announced.compute(appId, (a, before) -> {
      news[0] = before == null || (!before.withSecret() && now.withSecret());
      return news[0] ? now : before;
    });
    if (news[0]) {
      send(appId, user, now.secret(), 1);
    }
  }

  /** The worker registered with a master: announces every application running here again. */
  public void announceAgain() {
    announced.forEach((appId, a) -> send(appId, a.user(), a.secret(), 1));
  }

  /** The application ended on this node. */
  public void forget(String appId) {
    announced.remove(appId);
  }

  private void send(String appId, String user, byte[] secret, int attempt) {
    master.vouch(appId, user, secret).whenComplete((v, e) -> {
      if (e == null) {
        return;
      }
      if (attempt < TRIES && announced.containsKey(appId)) {
        try {
          timers.schedule(() -> send(appId, user, secret, attempt + 1), 1, TimeUnit.SECONDS);
        } catch (RejectedExecutionException stopped) {
          LOG.debug("the worker stops; application {} is not announced again", appId);
        }
      } else {
        LOG.warn("could not tell the master that application {} of user {} runs here: {}", appId, user,
            ScacheException.from(e).getMessage());
      }
    });
  }
}
