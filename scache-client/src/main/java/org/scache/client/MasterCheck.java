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
import org.scache.common.protocol.BlockRoom;
import org.scache.common.protocol.Status;

/**
 * The check every adapter makes before it sends a job through SCache: does the master answer, within
 * a short wait, and list a live worker? A job that fails it uses its framework's own shuffle.
 */
public final class MasterCheck {
  /**
   * What the check found: the live workers and how many more blocks they hold (empty from a master that does
   * not tell), or why SCache cannot serve a job now.
   */
  public record Result(List<WorkerInfo> workers, Optional<BlockRoom> room, Optional<String> problem) {
    public boolean usable() {
      return problem.isEmpty();
    }
  }

  private MasterCheck() {}

  /** How many more blocks the live workers hold; empty from a master of an earlier version, which does not tell. */
  private static Optional<BlockRoom> room(ScacheClient client) {
    try {
      return Optional.of(client.blockRoom());
    } catch (ScacheException e) {
      if (e.status() == Status.UNKNOWN_MESSAGE_TYPE) {
        return Optional.empty();
      }
      throw e;
    }
  }

  /**
   * Asks the master {@code scache} names for its live workers, waiting at most {@code wait}, trying once. The one
   * call goes over the blocking transport: it is made at an application master's or a driver's start, where Netty's
   * event loops and classes would cost a fresh JVM about 0.4 s of CPU for it.
   */
  public static Result run(ScacheConf scache, Duration wait) {
    return run(scache, wait, 0, 0);
  }

  /**
   * {@link #run(ScacheConf, Duration)}, and for a job whose one shuffle has {@code numMaps} maps and {@code numReduces}
   * reduces, whether its blocks fit in the cluster ({@link ShuffleRoom}); 0 reduces asks nothing more.
   */
  public static Result run(ScacheConf scache, Duration wait, long numMaps, long numReduces) {
    String master = Locator.describeMaster(scache, ScacheOptions.CLIENT_MASTER_ADDRESS);
    ScacheConf probe = scache.with(ScacheOptions.CLIENT_REQUEST_TIMEOUT, wait)
        .with(ScacheOptions.NETWORK_CONNECT_TIMEOUT, wait)
        .with(ScacheOptions.CLIENT_RETRY_MAX, 1).with(ScacheOptions.CLIENT_MASTER_FAILOVER_WAIT, wait)
        .with(ScacheOptions.CLIENT_LOCAL_SHM_ENABLED, false);
    try (ScacheClient client = ScacheClient.create(probe, "scache-master-check",
        "unused".getBytes(StandardCharsets.UTF_8), ClientTransport.BLOCKING)) {
      List<WorkerInfo> workers = client.workers();
      if (workers.isEmpty()) {
        return new Result(workers, Optional.empty(), Optional.of("the master at " + master + " has no live worker"));
      }
      Optional<BlockRoom> room = room(client);
      if (numReduces > 0 && room.isPresent()) {
        Optional<String> tooWide = ShuffleRoom.problem(room.get(), numMaps, numReduces);
        if (tooWide.isPresent()) {
          return new Result(workers, room, Optional.of("the job's shuffle does not fit in SCache: " + tooWide.get()));
        }
      }
      return new Result(workers, room, Optional.empty());
    } catch (ScacheException e) {
      return new Result(List.of(), Optional.empty(), Optional.of("the master at " + master + " did not answer within "
          + wait.toMillis() + " ms: " + e.getMessage()));
    } catch (RuntimeException e) {
      return new Result(List.of(), Optional.empty(), Optional.of("the master at " + master + " could not be asked: "
          + e));
    }
  }
}
