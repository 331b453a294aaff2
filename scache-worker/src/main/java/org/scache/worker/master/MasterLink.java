package org.scache.worker.master;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import org.scache.common.BlockId;
import org.scache.common.Clock;
import org.scache.common.DaemonThreads;
import org.scache.common.ScacheException;
import org.scache.common.ShuffleKey;
import org.scache.common.WorkerInfo;
import org.scache.common.protocol.Status;
import org.scache.common.shuffle.BlockSize;
import org.scache.common.shuffle.RoundState;
import org.scache.common.shuffle.ShuffleActivity;
import org.scache.worker.counters.ShuffleActivityLog;
import org.scache.worker.store.BlockQuota;
import org.scache.worker.store.StoreEvents;
import org.scache.worker.store.WorkerStorage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker's side of its conversation with the master: registration, heartbeats, batched
 * block-size reports, and forwarding of finished maps. Everything sent to the master leaves from
 * one thread over one connection ({@link MasterCalls}), so a map's block reports always arrive before
 * its {@code MAP_FINISHED}. After any lost report or a master restart the whole inventory is re-sent.
 * A report waits at most the flush interval; the flush is scheduled when a report has to wait, so an
 * idle worker's thread sleeps until its next heartbeat.
 */
public final class MasterLink implements StoreEvents, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(MasterLink.class);

  /** A map's final attempt, as told to the master (and told again after it re-registers the worker). */
  private record FinalAttempt(ShuffleKey shuffle, int mapId, int attempt) {}

  private final MasterCalls master;
  private final WorkerInfo self;
  private final WorkerStorage storage;
  private final int batchSize;
  private final Duration flushInterval;
  private final Consumer<String> onAppRemoved;
  private final ShuffleActivityLog activity;
  private final ScheduledExecutorService thread;
  private final List<BlockSize> pendingReports = new ArrayList<>();
  private final Map<String, List<FinalAttempt>> finishedMaps = new ConcurrentHashMap<>();
  private volatile boolean registered;
  /** Told each time this worker registers with a master (the first time, and after a restart or failover). */
  private volatile Runnable onRegistered = () -> { };
  private Clock clock = Clock.SYSTEM;
  private LongConsumer roundTrip = nanos -> { };
  private boolean fullReportNeeded = true;
  private ScheduledFuture<?> heartbeats;
  /** The flush that sends what waits, while something does (confined to {@link #thread}). */
  private ScheduledFuture<?> pendingFlush;

  public MasterLink(MasterCalls master, WorkerInfo self, WorkerStorage storage, int batchSize, Duration flushInterval,
      Consumer<String> onAppRemoved, ShuffleActivityLog activity) {
    this.activity = activity;
    this.master = master;
    this.self = self;
    this.storage = storage;
    this.batchSize = batchSize;
    this.flushInterval = flushInterval;
    this.onAppRemoved = onAppRemoved;
    this.thread = Executors.newSingleThreadScheduledExecutor(
        DaemonThreads.named("scache-master-link-" + self.workerId()));
  }

  /** Runs {@code action} each time this worker registers with a master; set before {@link #start}. */
  public void onRegistered(Runnable action) {
    this.onRegistered = action;
  }

  /**
   * Tells {@code roundTrip} how many nanoseconds, by {@code clock}, each request on an open connection to the
   * master took with its answer (heartbeats, the block room report after registering); set before {@link #start}.
   */
  public void timeRoundTrips(Clock clock, LongConsumer roundTrip) {
    this.clock = clock;
    this.roundTrip = roundTrip;
  }

  /** {@code call}, its round trip timed from {@code startNanos} when it succeeds. */
  private <T> CompletableFuture<T> timed(long startNanos, CompletableFuture<T> call) {
    return call.whenComplete((v, e) -> {
      if (e == null) {
        roundTrip.accept(clock.nanos() - startNanos);
      }
    });
  }

  public void start() {
    thread.execute(this::register);
  }

  public boolean isRegistered() {
    return registered;
  }

  /** Queues the size of a newly stored block for the master. */
  @Override
  public void blockStored(BlockSize block) {
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
  @Override
  public void roundsChanged(List<RoundState> changes) {
    thread.execute(() -> {
      if (registered) {
        bestEffort("REPORT_ROUNDS", master.reportRounds(self.workerId(), changes));
      }
    });
  }

  /** Tells the master that blocks held here are lost, after the reports queued before. */
  @Override
  public void blocksLost(List<BlockId> lost) {
    thread.execute(() -> {
      flush();
      bestEffort("REPORT_LOST_BLOCKS", master.reportLost(self.workerId(), lost));
    });
  }

  private void bestEffort(String what, CompletableFuture<Void> call) {
    call.whenComplete((v, e) -> {
      if (e != null) {
        LOG.debug("cannot send {} to master {}: {}", what, master, e.toString());
      }
    });
  }

  /** Sends every queued report, then the map's final attempt; completes with the master's answer. */
  public CompletableFuture<Void> mapFinished(ShuffleKey shuffle, int mapId, int attempt) {
    FinalAttempt finished = new FinalAttempt(shuffle, mapId, attempt);
    CompletableFuture<Void> result = new CompletableFuture<>();
    thread.execute(() -> {
      flush();
      finishedMaps.computeIfAbsent(shuffle.appId(), a -> new ArrayList<>()).add(finished);
      send(finished).whenComplete((v, e) -> {
        if (e != null) {
          result.completeExceptionally(ScacheException.from(e));
        } else {
          result.complete(null);
        }
      });
    });
    return result;
  }

  private CompletableFuture<Void> send(FinalAttempt finished) {
    return master.mapFinished(finished.shuffle(), finished.mapId(), finished.attempt());
  }

  public void forgetApplication(String appId) {
    finishedMaps.remove(appId);
  }

  private void register() {
    try {
      long interval = master.register(self, storage.reservedBytes(), storage.usedBytes()).join();
      registered = true;
      fullReportNeeded = true;
      flush();
      finishedMaps.values().forEach(list -> list.forEach(this::send));
      List<RoundState> partial = storage.incompleteRounds();
      if (!partial.isEmpty()) {
        bestEffort("REPORT_ROUNDS", master.reportRounds(self.workerId(), partial));
      }
      BlockQuota.Limits limits = storage.blockLimits();
      long sent = clock.nanos();
      bestEffort("REPORT_BLOCK_ROOM", timed(sent, master.reportBlockRoom(self.workerId(), limits.maxBlocks(),
          limits.maxBlocksPerOwner())));
      LOG.info("worker {} registered with master {}", self.workerId(), master);
      onRegistered.run();
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
    List<String> held = List.copyOf(storage.applications());
    long sent = clock.nanos();
    timed(sent, master.heartbeat(self.workerId(), storage.reservedBytes(), storage.usedBytes(),
        storage.heldAsLimited(), held)).whenCompleteAsync((removedApps, e) -> {
          if (e == null) {
            removedApps.forEach(onAppRemoved);
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
    List<ShuffleActivity> shuffles = activity.drain();
    master.reportActivity(self.workerId(), storage.spilledBytes(), storage.spillFileBytes(), shuffles)
        .whenComplete((v, e) -> {
          if (e != null) {
            activity.restore(shuffles);
            LOG.debug("cannot send REPORT_WORKER_ACTIVITY to master {}: {}", master, e.toString());
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
      batch = storage.inventory();
    } else {
      batch = new ArrayList<>(pendingReports);
      pendingReports.clear();
    }
    for (int i = 0; i < batch.size(); i += batchSize) {
      List<BlockSize> part = batch.subList(i, Math.min(batch.size(), i + batchSize));
      master.reportBlocks(self.workerId(), part).whenCompleteAsync((v, e) -> {
        if (e != null) {
          fullReportNeeded = true;
          flushLater();
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
  }
}
