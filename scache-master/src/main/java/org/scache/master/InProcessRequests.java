package org.scache.master;

import java.util.List;
import org.scache.common.WorkerInfo;
import org.scache.common.protocol.GetScheduleResult;
import org.scache.common.protocol.MapFinished;
import org.scache.common.protocol.RegisterApplication;
import org.scache.common.protocol.RegisterShuffle;
import org.scache.common.protocol.RegisterWorker;
import org.scache.common.protocol.ReportBlocks;
import org.scache.common.protocol.ScheduleResult;
import org.scache.common.protocol.UnregisterShuffle;
import org.scache.common.shuffle.BlockSize;
import org.scache.common.shuffle.ShufflePlacement;
import org.scache.common.shuffle.ShuffleSpec;

/**
 * Requests made to a master in its own JVM, served by the code that serves them once the network handler
 * has authorized them, without connection, codec or signature: for a process that embeds the master, and for
 * measuring what the master itself costs. Each call fails as its request would ({@code NOT_LEADER} while the
 * master does not lead).
 */
public final class InProcessRequests {
  private final ScacheMaster master;

  InProcessRequests(ScacheMaster master) {
    this.master = master;
  }

  /** A worker registers with this much memory reserved and used. */
  public void registerWorker(WorkerInfo worker, long reservedBytes, long usedBytes) {
    master.serveAuthorized(new RegisterWorker(worker, reservedBytes, usedBytes));
  }

  /** An application registers with the secret its requests are signed with. */
  public void registerApplication(String appId, byte[] secret) {
    master.serveAuthorized(new RegisterApplication(appId, secret));
  }

  /** A shuffle registers. */
  public void registerShuffle(ShuffleSpec shuffle) {
    master.serveAuthorized(new RegisterShuffle(shuffle));
  }

  /** A worker reports the sizes of blocks it stored. */
  public void reportBlocks(String workerId, List<BlockSize> blocks) {
    master.serveAuthorized(new ReportBlocks(workerId, blocks));
  }

  /** A map's final attempt. */
  public void mapFinished(String appId, int shuffleId, int mapId, int attempt) {
    master.serveAuthorized(new MapFinished(appId, shuffleId, mapId, attempt));
  }

  /** Where the master placed a shuffle's reduces; NOT_READY before it has. */
  public ShufflePlacement placement(String appId, int shuffleId) {
    return ((ScheduleResult) master.serveAuthorized(new GetScheduleResult(appId, shuffleId))).placement();
  }

  /** A shuffle is removed, once every live worker has dropped its blocks. */
  public void unregisterShuffle(String appId, int shuffleId) {
    master.serveAuthorized(new UnregisterShuffle(appId, shuffleId));
  }
}
