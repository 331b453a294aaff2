package org.scache.worker.master;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.scache.common.BlockId;
import org.scache.common.ScacheException;
import org.scache.common.ShuffleKey;
import org.scache.common.WorkerInfo;
import org.scache.common.auth.Credentials;
import org.scache.common.ha.Locator;
import org.scache.common.network.ClientConnections;
import org.scache.common.network.Reply;
import org.scache.common.protocol.AppSecret;
import org.scache.common.protocol.BlockLocations;
import org.scache.common.protocol.FetchAppSecret;
import org.scache.common.protocol.Heartbeat;
import org.scache.common.protocol.HeartbeatAck;
import org.scache.common.protocol.LocateBlocks;
import org.scache.common.protocol.MapFinished;
import org.scache.common.protocol.Message;
import org.scache.common.protocol.RegisterWorker;
import org.scache.common.protocol.ReportBlockRoom;
import org.scache.common.protocol.ReportBlocks;
import org.scache.common.protocol.ReportLostBlocks;
import org.scache.common.protocol.ReportRounds;
import org.scache.common.protocol.ReportWorkerActivity;
import org.scache.common.protocol.Status;
import org.scache.common.protocol.VouchApplication;
import org.scache.common.protocol.WorkerRegistered;
import org.scache.common.shuffle.BlockSize;
import org.scache.common.shuffle.RoundState;
import org.scache.common.shuffle.ShuffleActivity;
import org.scache.worker.cluster.BlockLocator;
import org.scache.worker.cluster.KnownApplication;
import org.scache.worker.cluster.LocatedBlocks;

/**
 * The one class that speaks to the master over the wire: each call takes and gives domain values and
 * turns them into the master's messages and back, signed as the cluster. The calls a worker makes in
 * order (registration, heartbeats and reports) await their connection on the caller's thread, so
 * that made from one thread they are written in call order; {@link #locate} and {@link #fetchSecret}
 * never block. A call that fails as if the master were gone or no longer led makes the next one look
 * for the master again.
 */
public final class MasterCalls implements BlockLocator, AutoCloseable {
  private final Locator master;
  private final ClientConnections connections;
  private final Credentials cluster;
  private final Duration timeout;

  public MasterCalls(Locator master, ClientConnections connections, Credentials cluster, Duration timeout) {
    this.master = master;
    this.connections = connections;
    this.cluster = cluster;
    this.timeout = timeout;
  }

  /** Registers the worker, in order; completes with the heartbeat interval the master asks for, in milliseconds. */
  CompletableFuture<Long> register(WorkerInfo self, long reservedBytes, long usedBytes) {
    return sendInOrder(new RegisterWorker(self, reservedBytes, usedBytes))
        .thenApply(r -> r.as(WorkerRegistered.class).heartbeatIntervalMillis());
  }

  /** A heartbeat, in order; completes with the applications the master has removed. */
  CompletableFuture<List<String>> heartbeat(String workerId, long reservedBytes, long usedBytes, long blockCount,
      List<String> heldApps) {
    return sendInOrder(new Heartbeat(workerId, reservedBytes, usedBytes, blockCount, heldApps))
        .thenApply(r -> r.as(HeartbeatAck.class).removedApps());
  }

  /** The sizes of blocks stored here, in order. */
  CompletableFuture<Void> reportBlocks(String workerId, List<BlockSize> blocks) {
    return acknowledged(sendInOrder(new ReportBlocks(workerId, blocks)));
  }

  /** The rounds this worker started or stopped keeping only in part, in order. */
  CompletableFuture<Void> reportRounds(String workerId, List<RoundState> rounds) {
    return acknowledged(sendInOrder(new ReportRounds(workerId, rounds)));
  }

  /** Blocks lost here, in order. */
  CompletableFuture<Void> reportLost(String workerId, List<BlockId> lost) {
    return acknowledged(sendInOrder(new ReportLostBlocks(workerId, lost)));
  }

  /** What this worker did per shuffle since its last report, in order. */
  CompletableFuture<Void> reportActivity(String workerId, long spilledBytes, long spillFileBytes,
      List<ShuffleActivity> shuffles) {
    return acknowledged(sendInOrder(new ReportWorkerActivity(workerId, spilledBytes, spillFileBytes,
        shuffles)));
  }

  /** The blocks this worker holds at most, in all and for one owner, in order. */
  CompletableFuture<Void> reportBlockRoom(String workerId, long maxBlocks, long maxBlocksPerOwner) {
    return acknowledged(sendInOrder(new ReportBlockRoom(workerId, maxBlocks, maxBlocksPerOwner)));
  }

  /** The final attempt of a map, in order; completes once the master has it. */
  CompletableFuture<Void> mapFinished(ShuffleKey shuffle, int mapId, int attempt) {
    return acknowledged(sendInOrder(new MapFinished(shuffle.appId(), shuffle.shuffleId(), mapId, attempt)));
  }

  /** The secret of {@code appId}. */
  public CompletableFuture<byte[]> fetchSecret(String appId) {
    return fetchApplication(appId).thenApply(KnownApplication::secret);
  }

  /** The secret of {@code appId} and its user. */
  public CompletableFuture<KnownApplication> fetchApplication(String appId) {
    return send(new FetchAppSecret(appId)).thenApply(r -> {
      AppSecret a = r.as(AppSecret.class);
      return new KnownApplication(a.secret(), a.user());
    });
  }

  /** The cluster vouches for an application: {@code appId} of {@code user}, with {@code secret} (may be empty). */
  public CompletableFuture<Void> vouch(String appId, String user, byte[] secret) {
    return acknowledged(send(new VouchApplication(appId, user, secret)));
  }

  @Override
  public CompletableFuture<LocatedBlocks> locate(ShuffleKey shuffle, int reduceId, int mapId) {
    return send(new LocateBlocks(shuffle.appId(), shuffle.shuffleId(), reduceId, mapId)).thenApply(r -> {
      BlockLocations found = r.as(BlockLocations.class);
      return new LocatedBlocks(found.numMaps(), found.finishedMaps(), found.locations());
    });
  }

  /** Completes when the master acknowledged; the answer's payload is released. */
  private static CompletableFuture<Void> acknowledged(CompletableFuture<Reply> call) {
    return call.thenAccept(r -> r.payload().release());
  }

  private CompletableFuture<Reply> send(Message m) {
    String address;
    try {
      address = master.address();
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(ScacheException.from(e));
    }
    return watched(address, connections.get(address).thenCompose(c -> c.call(m, Optional.of(cluster), timeout)));
  }

  /** Sends from the caller's thread, writing in call order (the connection is awaited here, not chained). */
  private CompletableFuture<Reply> sendInOrder(Message m) {
    String address;
    try {
      address = master.address();
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(ScacheException.from(e));
    }
    try {
      return watched(address, connections.get(address).join().call(m, Optional.of(cluster), timeout));
    } catch (RuntimeException e) {
      master.failed(address);
      return CompletableFuture.failedFuture(ScacheException.from(e));
    }
  }

  /** A call to {@code address} that fails as if the master were gone or no longer led makes the next look again. */
  private CompletableFuture<Reply> watched(String address, CompletableFuture<Reply> call) {
    return call.whenComplete((r, e) -> {
      if (e != null) {
        Status s = ScacheException.from(e).status();
        if (s == Status.CONNECTION_FAILED || s == Status.TIMEOUT || s == Status.NOT_LEADER
            || s == Status.SHUTTING_DOWN) {
          master.failed(address);
        }
      }
    });
  }

  @Override
  public String toString() {
    return master.toString();
  }

  /** Stops looking for the master. */
  @Override
  public void close() {
    master.close();
  }
}
