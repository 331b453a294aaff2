package org.scache.master;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.scache.common.Clock;
import org.scache.common.DaemonThreads;
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
  private final CoScheduler coScheduler;
  private final IncompleteRounds incompleteRounds = new IncompleteRounds();
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
    this.cluster = Credentials.cluster(clusterSecret);
    this.workers = new WorkerRegistry(clock, conf.get(ScacheOptions.MASTER_WORKER_EXPIRY));
    this.applications = new ApplicationRegistry(clock, conf.get(ScacheOptions.MASTER_TOMBSTONE_TTL));
    this.heartbeatMillis = conf.get(ScacheOptions.MASTER_HEARTBEAT_INTERVAL).toMillis();
    this.coScheduler = new CoScheduler(conf.get(ScacheOptions.MASTER_SCHEDULE_OBSERVATION_THRESHOLD),
        conf.get(ScacheOptions.MASTER_SCHEDULE_SLOTS_PER_WORKER), clock);
    TransportSettings transport = TransportSettings.from(conf);
    this.connections = new ConnectionPool(transport, "scache-master-client");
    MasterRequestHandler handler = new MasterRequestHandler(this, clusterSecret);
    this.server = ScacheServer.start("scache-master", conf.get(ScacheOptions.MASTER_BIND_HOST),
        conf.get(ScacheOptions.MASTER_PORT), transport, () -> handler);
    this.housekeeping = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("scache-master-housekeeping"));
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
    List<Message.BlockSize> blocks = m.blocks();
    int i = 0;
    while (i < blocks.size()) {
      // one lock and one application check per run of blocks of the same shuffle
      ShuffleKey key = blocks.get(i).blockId().shuffle();
      int end = i + 1;
      while (end < blocks.size() && blocks.get(end).blockId().shuffle().equals(key)) {
        end++;
      }
      if (applications.isRegistered(key.appId())) {
        List<Message.BlockSize> run = blocks.subList(i, end);
        shuffles.with(key, s -> {
          for (Message.BlockSize b : run) {
            s.report(b.blockId(), b.size(), m.workerId());
          }
          return null;
        });
      }
      i = end;
    }
    return new Message.Ack();
  }

  Message registerShuffle(Message.RegisterShuffle m) {
    applications.requireSecret(m.appId());
    Optional<CoScheduler.Decision> made = shuffles.with(new ShuffleKey(m.appId(), m.shuffleId()), s -> {
      s.register(m);
      return scheduleIfDue(s);
    });
    made.ifPresent(this::broadcast);
    return new Message.Ack();
  }

  Message reportSamples(Message.ReportSamples m) {
    applications.requireSecret(m.appId());
    Optional<CoScheduler.Decision> made = shuffles.withExisting(new ShuffleKey(m.appId(), m.shuffleId()), s -> {
      s.addSamples(m.samples());
      return scheduleIfDue(s);
    });
    made.ifPresent(this::broadcast);
    return new Message.Ack();
  }

  private Optional<CoScheduler.Decision> scheduleIfDue(ShuffleState s) {
    String app = s.shuffle().appId();
    return coScheduler.scheduleIfDue(s, workers.live(), id -> shuffles.peek(new ShuffleKey(app, id)));
  }

  /** Tells every live worker of a new placement, so the workers it names start prefetching. */
  private void broadcast(CoScheduler.Decision d) {
    tellWorkers(new Message.ShuffleScheduled(d.result(), d.moves(), d.submissionTimeMillis()));
  }

  /**
   * A worker spilled from rounds or loaded them back whole: when that changes which rounds of a
   * shuffle are incomplete somewhere, every live worker is told, so that all spill those rounds first.
   */
  Message reportRounds(Message.ReportRounds m) {
    if (!workers.isLive(m.workerId())) {
      throw new ScacheException(Status.UNKNOWN_WORKER, "worker " + m.workerId() + " is not registered");
    }
    incompleteRounds.report(m.workerId(), m.rounds()).forEach(this::tellWorkers);
    return new Message.Ack();
  }

  /** A worker lost blocks it held: their maps are lost (to be re-run) if they were final. */
  Message reportLostBlocks(Message.ReportLostBlocks m) {
    for (org.scache.common.BlockId id : m.blockIds()) {
      try {
        shuffles.withExisting(id.shuffle(), s -> {
          s.dropBlock(id, m.workerId());
          return null;
        });
        LOG.warn("worker {} lost block {}; map {} must be re-run", m.workerId(), id, id.mapId());
      } catch (ScacheException e) {
        LOG.debug("worker {} lost block {} of a shuffle already gone", m.workerId(), id);
      }
    }
    return new Message.Ack();
  }

  /** A reducer committed: every worker frees its input blocks. */
  Message reduceCommitted(Message.ReduceCommitted m) {
    applications.requireSecret(m.appId());
    tellWorkers(m);
    return new Message.Ack();
  }

  /** The rounds of a shuffle some worker keeps only in part, ascending. */
  List<Integer> incompleteRounds(ShuffleKey shuffle) {
    return incompleteRounds.of(shuffle);
  }

  Message mapFinished(Message.MapFinished m) {
    applications.requireSecret(m.appId());
    List<MapOutputNotices.Notice> notices = new ArrayList<>();
    Optional<CoScheduler.Decision> made = shuffles.with(new ShuffleKey(m.appId(), m.shuffleId()), s -> {
      s.mapFinished(m.mapId(), m.attempt());
      if (s.schedule().isPresent()) {
        notices.addAll(MapOutputNotices.forFinishedMap(s, m.mapId(), m.attempt(), workers::get));
        return Optional.<CoScheduler.Decision>empty();
      }
      return scheduleIfDue(s);
    });
    made.ifPresent(this::broadcast);
    notices.forEach(n -> tellWorker(n.to(), n.message()));
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
      s.shape().orElseThrow(() -> new ScacheException(Status.UNKNOWN_SHUFFLE,
          key + " has blocks but was never registered, so its reduce count is unknown"));
      if (workers.live().isEmpty()) {
        throw new ScacheException(Status.NOT_READY, "no live worker to place " + key + " on");
      }
      throw new ScacheException(Status.NOT_READY, key + " is not scheduled yet: " + coScheduler.waitingFor(s));
    });
  }

  Message unregisterShuffle(Message.UnregisterShuffle m) {
    ShuffleKey key = new ShuffleKey(m.appId(), m.shuffleId());
    shuffles.remove(key);
    incompleteRounds.forgetShuffle(key);
    tellWorkers(m);
    return new Message.Ack();
  }

  Message removeApplication(String appId) {
    applications.remove(appId);
    shuffles.removeApplication(appId);
    coScheduler.forgetApplication(appId);
    incompleteRounds.forgetApplication(appId);
    tellWorkers(new Message.RemoveApplication(appId));
    LOG.info("application {} removed", appId);
    return new Message.Ack();
  }

  /** Sends {@code m} to every live worker, best effort: workers that miss it learn it from their heartbeat. */
  private void tellWorkers(Message m) {
    for (WorkerInfo w : workers.live()) {
      tellWorker(w, m);
    }
  }

  /** Sends {@code m} to one worker, signed with the cluster secret, best effort. */
  private void tellWorker(WorkerInfo w, Message m) {
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

  private void expireWorkers() {
    for (WorkerInfo w : workers.expire()) {
      shuffles.dropHolder(w.workerId());
      incompleteRounds.dropWorker(w.workerId()).forEach(this::tellWorkers);
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

  /**
   * Serves a daemon or application request that was already authenticated, in this JVM: the same
   * code the network handler runs, for embedding the master and for benchmarks of its handling.
   */
  public Message handleTrusted(Message m) {
    return switch (m.type()) {
      case REGISTER_WORKER -> registerWorker((Message.RegisterWorker) m);
      case REPORT_BLOCKS -> reportBlocks((Message.ReportBlocks) m);
      case REGISTER_APPLICATION -> {
        Message.RegisterApplication r = (Message.RegisterApplication) m;
        applications.register(r.appId(), r.secret());
        yield new Message.Ack();
      }
      case REGISTER_SHUFFLE -> registerShuffle((Message.RegisterShuffle) m);
      case MAP_FINISHED -> mapFinished((Message.MapFinished) m);
      case REPORT_SAMPLES -> reportSamples((Message.ReportSamples) m);
      case GET_SCHEDULE_RESULT -> scheduleResult((Message.GetScheduleResult) m);
      case LOCATE_BLOCKS -> locate((Message.LocateBlocks) m);
      case UNREGISTER_SHUFFLE -> unregisterShuffle((Message.UnregisterShuffle) m);
      case REPORT_ROUNDS -> reportRounds((Message.ReportRounds) m);
      case REPORT_LOST_BLOCKS -> reportLostBlocks((Message.ReportLostBlocks) m);
      case REDUCE_COMMITTED -> reduceCommitted((Message.ReduceCommitted) m);
      default -> throw new ScacheException(Status.UNKNOWN_MESSAGE_TYPE, m.type() + " is not served in-process");
    };
  }

}
