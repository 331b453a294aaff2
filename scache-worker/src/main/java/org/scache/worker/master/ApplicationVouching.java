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
 * a second apart.
 */
public final class ApplicationVouching {
  private static final Logger LOG = LoggerFactory.getLogger(ApplicationVouching.class);
  static final int TRIES = 5;

  private final MasterCalls master;
  private final ScheduledExecutorService timers;
  /** Per application announced: whether its secret was announced too. */
  private final Map<String, Boolean> announced = new ConcurrentHashMap<>();

  public ApplicationVouching(MasterCalls master, ScheduledExecutorService timers) {
    this.master = master;
    this.timers = timers;
  }

  /** Announces {@code appId} of {@code user} with {@code secret} (empty: not known here), unless already done. */
  public void vouch(String appId, String user, byte[] secret) {
    boolean withSecret = secret.length > 0;
    boolean[] news = {false};
    announced.compute(appId, (a, before) -> {
      news[0] = before == null || (!before && withSecret);
      return withSecret || Boolean.TRUE.equals(before);
    });
    if (news[0]) {
      send(appId, user, secret.clone(), 1);
    }
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
