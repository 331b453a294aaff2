package org.scache.worker;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.scache.common.DaemonThreads;
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
import org.scache.common.protocol.ReportBlocks;
import org.scache.common.protocol.ReportLostBlocks;
import org.scache.common.protocol.ReportRounds;
import org.scache.common.protocol.ReportWorkerActivity;
import org.scache.common.protocol.Status;
import org.scache.common.protocol.WorkerRegistered;
import org.scache.common.shuffle.BlockSize;
import org.scache.common.shuffle.RoundState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker's side of its conversation with the master: registration, heartbeats, batched
 * block-size reports, and forwarding of finished maps. Everything sent to the master leaves from
 * one thread over one connection, so a map's block reports always arrive before its
 * {@code MAP_FINISHED}. After any lost report or a master restart the whole inventory is re-sent.
 * A report waits at most the flush interval; the flush is scheduled when a report has to wait, so an
 * idle worker's thread sleeps until its next heartbeat.
 */
final class MasterLink implements BlockLocator, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(MasterLink.class);

  private final Locator master;
  private final ClientConnections connections;
  private final Credentials cluster;
  private final WorkerInfo self;
  private final WorkerStorage storage;
  private final BlockStore store;
  private final int batchSize;
  private final Duration flushInterval;
  private final Duration timeout;
  private final Consumer<String> onAppRemoved;
  private final ShuffleActivityLog activity;
  private final ScheduledExecutorService thread;
  private final List<BlockSize> pendingReports = new ArrayList<>();
  private final Map<String, List<MapFinished>> finishedMaps = new ConcurrentHashMap<>();
  private volatile boolean registered;
  private boolean fullReportNeeded = true;
  private ScheduledFuture<?> heartbeats;
  /** The flush that sends what waits, while something does (confined to {@link #thread}). */
  private ScheduledFuture<?> pendingFlush;

  MasterLink(Locator master, ClientConnections connections, Credentials cluster, WorkerInfo self, WorkerStorage storage,
      int batchSize, Duration flushInterval, Duration timeout, Consumer<String> onAppRemoved,
      ShuffleActivityLog activity) {
    this.activity = activity;
    this.master = master;
    this.connections = connections;
    this.cluster = cluster;
    this.self = self;
    this.storage = storage;
    this.store = storage.store();
    this.batchSize = batchSize;
    this.flushInterval = flushInterval;
    this.timeout = timeout;
    this.onAppRemoved = onAppRemoved;
    this.thread = Executors.newSingleThreadScheduledExecutor(
        DaemonThreads.named("scache-master-link-" + self.workerId()));
  }

  void start() {
    thread.execute(this::register);
  }

  boolean isRegistered() {
    return registered;
  }

  /** Queues the size of a newly stored block for the master. */
  void report(BlockSize block) {
    thread.execute(() -> {
      pendingReports.add(block);
      if (pendingReports.size() >= batchSize) {
        flush();
      } else {
        flushLater();
      }
    });
  }

  /** Tells the master which rounds this worker started or stopped keeping only in part; best effort. */
  void reportRounds(List<RoundState> changes) {
    thread.execute(() -> {
      if (registered) {
        sendBestEffort(new ReportRounds(self.workerId(), changes));
      }
    });
  }

  /** Tells the master that blocks held here are lost, after the reports queued before. */
  void reportLost(List<org.scache.common.BlockId> lost) {
    thread.execute(() -> {
      flush();
      sendBestEffort(new ReportLostBlocks(self.workerId(), lost));
    });
  }

  private void sendBestEffort(Message m) {
    sendInOrder(m).whenComplete((r, e) -> {
      if (e != null) {
        LOG.debug("cannot send {} to master {}: {}", m.type(), master, e.toString());
      } else {
        r.payload().release();
      }
    });
  }

  /** Sends every queued report, then the map's final attempt; completes with the master's answer. */
  CompletableFuture<Void> mapFinished(ShuffleKey shuffle, int mapId, int attempt) {
    MapFinished finished = new MapFinished(shuffle.appId(), shuffle.shuffleId(), mapId, attempt);
    CompletableFuture<Void> result = new CompletableFuture<>();
    thread.execute(() -> {
      flush();
      finishedMaps.computeIfAbsent(finished.appId(), a -> new ArrayList<>()).add(finished);
      sendInOrder(finished).whenComplete((r, e) -> {
        if (e != null) {
          result.completeExceptionally(ScacheException.from(e));
        } else {
          r.payload().release();
          result.complete(null);
        }
      });
    });
    return result;
  }

  /** The secret of {@code appId}, from the master. */
  CompletableFuture<byte[]> fetchSecret(String appId) {
    return send(new FetchAppSecret(appId)).thenApply(r -> r.as(AppSecret.class).secret());
  }

  @Override
  public CompletableFuture<LocatedBlocks> locate(ShuffleKey shuffle, int reduceId, int mapId) {
    return send(new LocateBlocks(shuffle.appId(), shuffle.shuffleId(), reduceId, mapId)).thenApply(r -> {
      BlockLocations found = r.as(BlockLocations.class);
      return new LocatedBlocks(found.numMaps(), found.finishedMaps(), found.locations());
    });
  }

  void forgetApplication(String appId) {
    finishedMaps.remove(appId);
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

  /** Sends from the link thread, writing in call order (the connection is awaited here, not chained). */
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

  /** A call to {@code address} that fails as if the master were gone or no longer led makes the next call look again. */
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

  private void register() {
    try {
      Reply r = sendInOrder(new RegisterWorker(self, store.reservedBytes(), store.usedBytes())).join();
      long interval = r.as(WorkerRegistered.class).heartbeatIntervalMillis();
      registered = true;
      fullReportNeeded = true;
      flush();
      finishedMaps.values().forEach(list -> list.forEach(this::sendInOrder));
      List<RoundState> partial = store.reports().incompleteRounds();
      if (!partial.isEmpty()) {
        sendBestEffort(new ReportRounds(self.workerId(), partial));
      }
      LOG.info("worker {} registered with master {}", self.workerId(), master);
      if (heartbeats == null || heartbeats.isCancelled()) {
        heartbeats = thread.scheduleWithFixedDelay(this::heartbeat, interval, Math.max(interval, 10),
            TimeUnit.MILLISECONDS);
      }
    } catch (RuntimeException e) {
      registered = false;
      LOG.warn("worker {} cannot register with master {}: {}; retrying", self.workerId(), master,
          ScacheException.from(e).getMessage());
      thread.schedule(this::register, 1, TimeUnit.SECONDS);
    }
  }

  private void heartbeat() {
    Heartbeat hb = new Heartbeat(self.workerId(), store.reservedBytes(), store.usedBytes(),
        store.blockCount(), List.copyOf(store.applications()));
    sendInOrder(hb).whenCompleteAsync((r, e) -> {
      if (e == null) {
        HeartbeatAck ack = r.as(HeartbeatAck.class);
        ack.removedApps().forEach(onAppRemoved);
        reportActivity();
        return;
      }
      ScacheException se = ScacheException.from(e);
      if (se.status() == Status.UNKNOWN_WORKER || se.status() == Status.NOT_LEADER) {
        LOG.info("master {} does not know worker {}; registering again", master, self.workerId());
        heartbeats.cancel(false);
        registered = false;
        register();
      } else {
        LOG.debug("heartbeat to {} failed: {}", master, se.getMessage());
        fullReportNeeded = true;
        flushLater();
      }
    }, thread);
  }

  /** Sends what this worker did per shuffle since the last report; put back if it does not arrive. */
  private void reportActivity() {
    List<org.scache.common.shuffle.ShuffleActivity> shuffles = activity.drain();
    ReportWorkerActivity report = new ReportWorkerActivity(self.workerId(), store.spilledBytes(),
        storage.spillFileBytes(), shuffles);
    sendInOrder(report).whenComplete((r, e) -> {
      if (e != null) {
        activity.restore(shuffles);
        LOG.debug("cannot send {} to master {}: {}", report.type(), master, e.toString());
      } else {
        r.payload().release();
      }
    });
  }

  /** Sends what waits within the flush interval, unless a flush is already due. */
  private void flushLater() {
    if (pendingFlush == null) {
      pendingFlush = thread.schedule(this::flush, flushInterval.toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  private void flush() {
    if (pendingFlush != null) {
      pendingFlush.cancel(false);
      pendingFlush = null;
    }
    if (!registered) {
      return;
    }
    List<BlockSize> batch;
    if (fullReportNeeded) {
      fullReportNeeded = false;
      pendingReports.clear();
      batch = store.inventory();
    } else {
      batch = new ArrayList<>(pendingReports);
      pendingReports.clear();
    }
    for (int i = 0; i < batch.size(); i += batchSize) {
      List<BlockSize> part = batch.subList(i, Math.min(batch.size(), i + batchSize));
      sendInOrder(new ReportBlocks(self.workerId(), part)).whenCompleteAsync((r, e) -> {
        if (e != null) {
          fullReportNeeded = true;
          flushLater();
        } else {
          r.payload().release();
        }
      }, thread);
    }
  }

  @Override
  public void close() {
    if (heartbeats != null) {
      heartbeats.cancel(false);
    }
    thread.shutdownNow();
    master.close();
  }
}
