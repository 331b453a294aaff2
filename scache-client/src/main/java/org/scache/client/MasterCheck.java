package org.scache.client;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.scache.common.ScacheException;
import org.scache.common.WorkerInfo;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import org.scache.common.ha.Locator;
import org.scache.common.network.ClientTransport;

/**
 * The check every adapter makes before it sends a job through SCache: does the master answer, within
 * a short wait, and list a live worker? A job that fails it uses its framework's own shuffle.
 */
public final class MasterCheck {
  /** What the check found: the live workers, or why SCache cannot serve a job now. */
  public record Result(List<WorkerInfo> workers, Optional<String> problem) {
    public boolean usable() {
      return problem.isEmpty();
    }
  }

  private MasterCheck() {}

  /**
   * Asks the master {@code scache} names for its live workers, waiting at most {@code wait}, trying once. The one
   * call goes over the blocking transport: it is made at an application master's or a driver's start, where Netty's
   * event loops and classes would cost a fresh JVM about 0.4 s of CPU for it.
   */
  public static Result run(ScacheConf scache, Duration wait) {
    String master = Locator.describeMaster(scache, ScacheOptions.CLIENT_MASTER_ADDRESS);
    ScacheConf probe = scache.with(ScacheOptions.CLIENT_REQUEST_TIMEOUT, wait)
        .with(ScacheOptions.NETWORK_CONNECT_TIMEOUT, wait)
        .with(ScacheOptions.CLIENT_RETRY_MAX, 1).with(ScacheOptions.CLIENT_MASTER_FAILOVER_WAIT, wait)
        .with(ScacheOptions.CLIENT_LOCAL_SHM_ENABLED, false);
    try (ScacheClient client = ScacheClient.create(probe, "scache-master-check",
        "unused".getBytes(StandardCharsets.UTF_8), ClientTransport.BLOCKING)) {
      List<WorkerInfo> workers = client.workers();
      return new Result(workers, workers.isEmpty()
          ? Optional.of("the master at " + master + " has no live worker") : Optional.empty());
    } catch (ScacheException e) {
      return new Result(List.of(), Optional.of("the master at " + master + " did not answer within "
          + wait.toMillis() + " ms: " + e.getMessage()));
    } catch (RuntimeException e) {
      return new Result(List.of(), Optional.of("the master at " + master + " could not be asked: " + e));
    }
  }
}
