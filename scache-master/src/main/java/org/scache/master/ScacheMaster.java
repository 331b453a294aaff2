package org.scache.master;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.scache.common.Clock;
import org.scache.common.ScacheException;
import org.scache.common.ShuffleKey;
import org.scache.common.WorkerInfo;
import org.scache.common.auth.Credentials;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import org.scache.common.network.ConnectionPool;
import org.scache.common.network.ScacheServer;
import org.scache.common.network.TransportSettings;
import org.scache.common.protocol.Message;
import org.scache.common.protocol.Message.BlockLocation;
import org.scache.common.protocol.Status;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The SCache master: tracks live workers, applications, shuffles and the size and holder of every
 * block, locates blocks for workers, and answers where each reduce should run.
 */
public final class ScacheMaster implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ScacheMaster.class);

  private final WorkerRegistry workers;
  private final ApplicationRegistry applications;
  private final ShuffleRegistry shuffles = new ShuffleRegistry();
  private final Clock clock;
  private final long heartbeatMillis;
  private final Credentials cluster;
  private final ConnectionPool connections;
  private final ScheduledExecutorService housekeeping;
  private final ScacheServer server;

  private ScacheMaster(ScacheConf conf, Clock clock) throws InterruptedException {
    String secret = conf.get(ScacheOptions.SECURITY_CLUSTER_SECRET);
    if (secret.isEmpty()) {
      throw new IllegalArgumentException(ScacheOptions.SECURITY_CLUSTER_SECRET.key()
          + " must be set to the same secret on the master and every worker");
    }
    byte[] clusterSecret = secret.getBytes(StandardCharsets.UTF_8);
    this.clock = clock;
    this.cluster = Credentials.cluster(clusterSecret);
    this.workers = new WorkerRegistry(clock, conf.get(ScacheOptions.MASTER_WORKER_EXPIRY));
    this.applications = new ApplicationRegistry(clock, conf.get(ScacheOptions.MASTER_TOMBSTONE_TTL));
    this.heartbeatMillis = conf.get(ScacheOptions.MASTER_HEARTBEAT_INTERVAL).toMillis();
    TransportSettings transport = TransportSettings.from(conf);
    this.connections = new ConnectionPool(transport, "scache-master-client");
    MasterRequestHandler handler = new MasterRequestHandler(this, clusterSecret);
    this.server = ScacheServer.start("scache-master", conf.get(ScacheOptions.MASTER_BIND_HOST),
        conf.get(ScacheOptions.MASTER_PORT), transport, () -> handler);
    this.housekeeping = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "scache-master-housekeeping");
      t.setDaemon(true);
      return t;
    });
    housekeeping.scheduleWithFixedDelay(this::expireWorkers, heartbeatMillis, heartbeatMillis, TimeUnit.MILLISECONDS);
    LOG.info("master serving on port {}", server.port());
  }

  public static ScacheMaster start(ScacheConf conf) throws InterruptedException {
    return new ScacheMaster(conf, Clock.SYSTEM);
  }

  public static ScacheMaster start(ScacheConf conf, Clock clock) throws InterruptedException {
    return new ScacheMaster(conf, clock);
  }

  public int port() {
    return server.port();
  }

  /** Workers currently alive, by id. */
  public List<WorkerInfo> liveWorkers() {
    return workers.live();
  }

  WorkerRegistry workers() {
    return workers;
  }

  ApplicationRegistry applications() {
    return applications;
  }

  Message registerWorker(Message.RegisterWorker m) {
    workers.register(m.worker(), m.reservedBytes(), m.usedBytes());
    shuffles.dropHolder(m.worker().workerId());
    LOG.info("worker {} registered from {} with {} bytes reserved", m.worker().workerId(), m.worker().address(),
        m.reservedBytes());
    return new Message.WorkerRegistered(heartbeatMillis);
  }

  Message heartbeat(Message.Heartbeat m) {
    if (!workers.heartbeat(m.workerId(), m.reservedBytes(), m.usedBytes())) {
      throw new ScacheException(Status.UNKNOWN_WORKER, "worker " + m.workerId() + " is not registered");
    }
    return new Message.HeartbeatAck(applications.removedAmong(m.heldApps()));
  }

  Message reportBlocks(Message.ReportBlocks m) {
    if (!workers.isLive(m.workerId())) {
      throw new ScacheException(Status.UNKNOWN_WORKER, "worker " + m.workerId() + " is not registered");
    }
    for (Message.BlockSize b : m.blocks()) {
      if (applications.secret(b.blockId().appId()).isPresent()) {
        shuffles.with(b.blockId().shuffle(), s -> {
          s.report(b.blockId(), b.size(), m.workerId());
          return null;
        });
      }
    }
    return new Message.Ack();
  }

  Message registerShuffle(Message.RegisterShuffle m) {
    applications.requireSecret(m.appId());
    shuffles.with(new ShuffleKey(m.appId(), m.shuffleId()), s -> {
      s.register(m);
      return null;
    });
    return new Message.Ack();
  }

  Message mapFinished(Message.MapFinished m) {
    applications.requireSecret(m.appId());
    shuffles.with(new ShuffleKey(m.appId(), m.shuffleId()), s -> {
      s.mapFinished(m.mapId(), m.attempt());
      return null;
    });
    return new Message.Ack();
  }

  Message locate(Message.LocateBlocks m) {
    return shuffles.withExisting(new ShuffleKey(m.appId(), m.shuffleId()), s -> {
      List<ShuffleState.BlockEntry> entries = m.mapId() < 0 ? s.finalBlocks(m.reduceId())
          : s.blocksOf(m.reduceId(), m.mapId());
      List<BlockLocation> found = new ArrayList<>(entries.size());
      List<String> lost = new ArrayList<>();
      for (ShuffleState.BlockEntry e : entries) {
        Optional<WorkerInfo> holder = workers.get(e.holder());
        if (holder.isPresent()) {
          found.add(new BlockLocation(new org.scache.common.BlockId(m.appId(), m.shuffleId(), e.mapId(), e.attempt(),
              m.reduceId()), e.size(), holder.get()));
        } else {
          lost.add("map " + e.mapId() + " attempt " + e.attempt() + " on worker " + e.holder());
        }
      }
      if (m.mapId() < 0) {
        s.lostMaps().forEach(map -> lost.add("map " + map));
      }
      if (!lost.isEmpty() && m.mapId() < 0) {
        throw new ScacheException(Status.BLOCK_NOT_FOUND, "reduce " + m.reduceId() + " of " + s.shuffle()
            + " lost the output of " + String.join(", ", lost) + " (its worker died or restarted): re-run those maps");
      }
      int numMaps = s.shape().map(Message.RegisterShuffle::numMaps).orElse(0);
      return new Message.BlockLocations(numMaps, s.finishedMaps(), found);
    });
  }

  Message scheduleResult(Message.GetScheduleResult m) {
    ShuffleKey key = new ShuffleKey(m.appId(), m.shuffleId());
    return shuffles.withExisting(key, s -> {
      if (s.schedule().isPresent()) {
        return s.schedule().get();
      }
      Message.RegisterShuffle shape = s.shape().orElseThrow(() -> new ScacheException(Status.UNKNOWN_SHUFFLE,
          key + " has blocks but was never registered, so its reduce count is unknown"));
      List<WorkerInfo> live = workers.live();
      if (live.isEmpty()) {
        throw new ScacheException(Status.NOT_READY, "no live worker to place " + key + " on");
      }
      Message.ScheduleResult result = RoundRobinPlacement.place(key, shape.numReduces(), live);
      s.schedule(result);
      return result;
    });
  }

  Message unregisterShuffle(Message.UnregisterShuffle m) {
    ShuffleKey key = new ShuffleKey(m.appId(), m.shuffleId());
    shuffles.remove(key);
    tellWorkers(m);
    return new Message.Ack();
  }

  Message removeApplication(String appId) {
    applications.remove(appId);
    shuffles.removeApplication(appId);
    tellWorkers(new Message.RemoveApplication(appId));
    LOG.info("application {} removed", appId);
    return new Message.Ack();
  }

  /** Sends {@code m} to every live worker, best effort: workers that miss it learn it from their heartbeat. */
  private void tellWorkers(Message m) {
    for (WorkerInfo w : workers.live()) {
      connections.get(w.host(), w.port())
          .thenCompose(c -> c.call(m, Optional.of(cluster), java.time.Duration.ofSeconds(10)))
          .whenComplete((r, e) -> {
            if (e != null) {
              LOG.debug("cannot tell worker {} {}: {}", w.workerId(), m.type(), e.toString());
            } else {
              r.payload().release();
            }
          });
    }
  }

  private void expireWorkers() {
    for (WorkerInfo w : workers.expire()) {
      shuffles.dropHolder(w.workerId());
      LOG.warn("worker {} at {} sent no heartbeat for too long; its blocks are lost", w.workerId(), w.address());
    }
  }

  @Override
  public void close() {
    housekeeping.shutdownNow();
    server.close();
    connections.close();
    LOG.info("master stopped");
  }

  long nowMillis() {
    return clock.millis();
  }
}
