package org.scache.master;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.scache.common.BlockId;
import org.scache.common.ScacheException;
import org.scache.common.ShuffleKey;
import org.scache.common.WorkerInfo;
import org.scache.common.protocol.Ack;
import org.scache.common.protocol.AppSecret;
import org.scache.common.protocol.BlockLocations;
import org.scache.common.protocol.FetchAppSecret;
import org.scache.common.protocol.GetScheduleResult;
import org.scache.common.protocol.Heartbeat;
import org.scache.common.protocol.HeartbeatAck;
import org.scache.common.protocol.HoldCopies;
import org.scache.common.protocol.LocateBlocks;
import org.scache.common.protocol.MapFinished;
import org.scache.common.protocol.MapOutputReady;
import org.scache.common.protocol.Message;
import org.scache.common.protocol.ReadInPlace;
import org.scache.common.protocol.ReduceCommitted;
import org.scache.common.protocol.RegisterApplication;
import org.scache.common.protocol.RegisterShuffle;
import org.scache.common.protocol.RegisterWorker;
import org.scache.common.protocol.RemoveApplication;
import org.scache.common.protocol.ReportBlockRoom;
import org.scache.common.protocol.ReportBlocks;
import org.scache.common.protocol.ReportLostBlocks;
import org.scache.common.protocol.ReportRounds;
import org.scache.common.protocol.ReportSamples;
import org.scache.common.protocol.ReportWorkerActivity;
import org.scache.common.protocol.RoundsIncomplete;
import org.scache.common.protocol.ScheduleResult;
import org.scache.common.protocol.ShuffleScheduled;
import org.scache.common.protocol.Status;
import org.scache.common.protocol.UnregisterShuffle;
import org.scache.common.protocol.VouchApplication;
import org.scache.common.protocol.WorkerRegistered;
import org.scache.common.protocol.Workers;
import org.scache.common.shuffle.BlockLocation;
import org.scache.common.shuffle.BlockSize;
import org.scache.common.shuffle.ReduceMove;
import org.scache.common.shuffle.ShuffleRounds;
import org.scache.common.shuffle.ShuffleSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves every request the master answers, once it is authorized: registers workers, applications
 * and shuffles, takes block reports and finished maps, places shuffles when they are due, locates
 * blocks, and tells workers what they must know. It is the master's edge between messages and its
 * state: the registries and the co-scheduler hold domain types only. No networking here: answers are
 * returned, and messages to workers go through the {@link WorkerNotifier}.
 */
final class MasterRequests {
  private static final Logger LOG = LoggerFactory.getLogger(MasterRequests.class);

  private final WorkerRegistry workers;
  private final ClusterBlockRoom blockRoom = new ClusterBlockRoom();
  private final ApplicationRegistry applications;
  private final ShuffleRegistry shuffles;
  private final CoScheduler coScheduler;
  private final IncompleteRounds incompleteRounds;
  private final WorkerNotifier notifier;
  private final NoticeQueues noticeQueues;
  private final long heartbeatMillis;
  private final org.scache.common.Clock clock;
  private final MasterMetrics metrics;
  private final ShuffleStore kept;
  private final PlacementFrameLimit frames;
  private final ApplicationAdmission admission;
  private final PlacementWaiters placementWaiters = new PlacementWaiters(this::finalPlacement);

  MasterRequests(WorkerRegistry workers, ApplicationRegistry applications, ShuffleRegistry shuffles,
      CoScheduler coScheduler, IncompleteRounds incompleteRounds, WorkerNotifier notifier, long heartbeatMillis) {
    this(workers, applications, shuffles, coScheduler, incompleteRounds, notifier, heartbeatMillis,
        org.scache.common.Clock.SYSTEM, new MasterMetrics(), ShuffleStore.NONE);
  }

  /** Requests over these registries, every application admitted as its own user. */
  MasterRequests(WorkerRegistry workers, ApplicationRegistry applications, ShuffleRegistry shuffles,
      CoScheduler coScheduler, IncompleteRounds incompleteRounds, WorkerNotifier notifier, long heartbeatMillis,
      org.scache.common.Clock clock, MasterMetrics metrics, ShuffleStore kept) {
    this(workers, applications, shuffles, coScheduler, incompleteRounds, notifier, heartbeatMillis, clock, metrics,
        kept, new PlacementFrameLimit(StateLimits.DEFAULTS.maxFrameMetaBytes()), ApplicationAdmission.open(applications,
        clock));
  }

  /**
   * Requests over these registries; {@code kept} keeps each shuffle and its placement for a later leader,
   * {@code frames} refuses shuffles whose placement would not fit in a frame, and {@code admission} decides who an
   * application registers as.
   */
  MasterRequests(WorkerRegistry workers, ApplicationRegistry applications, ShuffleRegistry shuffles,
      CoScheduler coScheduler, IncompleteRounds incompleteRounds, WorkerNotifier notifier, long heartbeatMillis,
      org.scache.common.Clock clock, MasterMetrics metrics, ShuffleStore kept, PlacementFrameLimit frames,
      ApplicationAdmission admission) {
    this.admission = admission;
    this.kept = kept;
    this.frames = frames;
    this.clock = clock;
    this.metrics = metrics;
    this.workers = workers;
    this.applications = applications;
    this.shuffles = shuffles;
    this.coScheduler = coScheduler;
    this.incompleteRounds = incompleteRounds;
    this.notifier = notifier;
    this.noticeQueues = new NoticeQueues(notifier);
    this.heartbeatMillis = heartbeatMillis;
  }

  /**
   * Answers an authorized request. A removal (of a shuffle or an application) is answered once every
   * live worker has dropped what it removes, or could not be told: a shuffle registered again under
   * the same id after the answer is never caught by a worker's late removal of the old one.
   */
  CompletableFuture<Message> answer(Message m) {
    return answer(m, "in-process");
  }

  /**
   * As {@link #answer(Message)}, for a request from remote host {@code peer}: a registration may wait for the
   * cluster to vouch for its application, and is counted against its principal ({@link ApplicationAdmission}).
   */
  CompletableFuture<Message> answer(Message m, String peer) {
    return switch (m.type()) {
      case REGISTER_APPLICATION -> admission.register((RegisterApplication) m, peer).thenApply(v -> new Ack());
      case UNREGISTER_SHUFFLE -> unregisterShuffle((UnregisterShuffle) m);
      case REMOVE_APPLICATION -> removeApplication(((RemoveApplication) m).appId());
      case GET_SCHEDULE_RESULT -> scheduleResultWaiting((GetScheduleResult) m);
      default -> CompletableFuture.completedFuture(serve(m));
    };
  }

  /**
   * Answers an authorized request, waiting for the workers a removal tells (see {@link #answer});
   * UNKNOWN_MESSAGE_TYPE for a message the master does not serve.
   */
  Message serve(Message m) {
    return switch (m.type()) {
      case REGISTER_WORKER -> registerWorker((RegisterWorker) m);
      case HEARTBEAT -> heartbeat((Heartbeat) m);
      case REPORT_BLOCKS -> reportBlocks((ReportBlocks) m);
      case FETCH_APP_SECRET -> appSecret(((FetchAppSecret) m).appId());
      case REGISTER_APPLICATION -> joined(answer(m));
      case VOUCH_APPLICATION -> vouch((VouchApplication) m);
      case REGISTER_SHUFFLE -> registerShuffle(((RegisterShuffle) m).shuffle());
      case MAP_FINISHED -> mapFinished((MapFinished) m);
      case REPORT_SAMPLES -> reportSamples((ReportSamples) m);
      case GET_SCHEDULE_RESULT -> ((GetScheduleResult) m).waitMillis() > 0 ? joined(answer(m))
          : scheduleResult((GetScheduleResult) m);
      case LOCATE_BLOCKS -> locate((LocateBlocks) m);
      case UNREGISTER_SHUFFLE, REMOVE_APPLICATION -> answer(m).join();
      case REPORT_ROUNDS -> reportRounds((ReportRounds) m);
      case REPORT_LOST_BLOCKS -> reportLostBlocks((ReportLostBlocks) m);
      case REDUCE_COMMITTED -> reduceCommitted((ReduceCommitted) m);
      case READ_IN_PLACE -> readInPlace((ReadInPlace) m);
      case HOLD_COPIES -> holdCopies((HoldCopies) m);
      case LIST_WORKERS -> new Workers(workers.live());
      case ASK_BLOCK_ROOM -> blockRoom.of(workers.live(), shuffles.blocksToCome());
      case REPORT_BLOCK_ROOM -> reportBlockRoom((ReportBlockRoom) m);
      case REPORT_WORKER_ACTIVITY -> reportActivity((ReportWorkerActivity) m);
      default -> throw new ScacheException(Status.UNKNOWN_MESSAGE_TYPE, m.type() + " is not served by the master");
    };
  }

  /** Forgets the workers that sent no heartbeat for too long: their blocks are lost. */
  void expireWorkers() {
    for (WorkerInfo w : workers.expire()) {
      shuffles.dropHolder(w.workerId());
      blockRoom.forget(w.workerId());
      incompleteRounds.dropWorker(w.workerId()).forEach(this::tellIncompleteRounds);
      LOG.warn("worker {} at {} sent no heartbeat for too long; its blocks are lost", w.workerId(), w.address());
    }
  }

  private Message registerWorker(RegisterWorker m) {
    workers.register(m.worker(), m.reservedBytes(), m.usedBytes());
    shuffles.dropHolder(m.worker().workerId());
    LOG.info("worker {} registered from {} with {} bytes reserved", m.worker().workerId(), m.worker().address(),
        m.reservedBytes());
    return new WorkerRegistered(heartbeatMillis);
  }

  private Message heartbeat(Heartbeat m) {
    if (!workers.heartbeat(m.workerId(), m.reservedBytes(), m.usedBytes())) {
      throw new ScacheException(Status.UNKNOWN_WORKER, "worker " + m.workerId() + " is not registered");
    }
    blockRoom.held(m.workerId(), m.blockCount());
    return new HeartbeatAck(applications.removedAmong(m.heldApps()));
  }

  private Message reportBlockRoom(ReportBlockRoom m) {
    if (!workers.isLive(m.workerId())) {
      throw new ScacheException(Status.UNKNOWN_WORKER, "worker " + m.workerId() + " is not registered");
    }
    blockRoom.limits(m.workerId(), m.maxBlocks(), m.maxBlocksPerOwner());
    return new Ack();
  }

  private static Message joined(CompletableFuture<Message> answer) {
    try {
      return answer.join();
    } catch (java.util.concurrent.CompletionException e) {
      throw ScacheException.from(e);
    }
  }

  private Message appSecret(String appId) {
    return new AppSecret(applications.requireSecret(appId), applications.userOf(appId));
  }

  private Message vouch(VouchApplication m) {
    admission.vouch(m);
    return new Ack();
  }

  private Message reportBlocks(ReportBlocks m) {
    requireLiveWorker(m.workerId());
    List<BlockSize> blocks = m.blocks();
    int i = 0;
    while (i < blocks.size()) {
      // one lock and one application check per run of blocks of the same shuffle
      ShuffleKey key = blocks.get(i).blockId().shuffle();
      int end = i + 1;
      while (end < blocks.size() && blocks.get(end).blockId().shuffle().equals(key)) {
        end++;
      }
      if (applications.isRegistered(key.appId())) {
        List<BlockSize> run = blocks.subList(i, end);
        shuffles.with(key, s -> {
          for (BlockSize b : run) {
            s.report(b.blockId(), b.size(), m.workerId());
          }
          return null;
        });
      }
      i = end;
    }
    return new Ack();
  }

  private Message registerShuffle(ShuffleSpec spec) {
    applications.requireSecret(spec.appId());
    Optional<CoScheduler.Decision> made = shuffles.register(spec,
        s -> frames.checkRegistration(s, workers.live()), s -> {
          kept.registered(s.shape().orElseThrow());
          return scheduleIfDue(s);
        });
    made.ifPresent(this::broadcast);
    return new Ack();
  }

  private Message reportSamples(ReportSamples m) {
    applications.requireSecret(m.appId());
    Optional<CoScheduler.Decision> made = shuffles.withExisting(new ShuffleKey(m.appId(), m.shuffleId()), s -> {
      s.addSamples(m.samples());
      return scheduleIfDue(s);
    });
    made.ifPresent(this::broadcast);
    return new Ack();
  }

  private Optional<CoScheduler.Decision> scheduleIfDue(ShuffleState s) {
    String app = s.shuffle().appId();
    long start = System.nanoTime();
    Optional<CoScheduler.Decision> made = coScheduler.scheduleIfDue(s, workers.live(),
        id -> shuffles.peek(new ShuffleKey(app, id)));
    made.ifPresent(d -> {
      metrics.placed(d, System.nanoTime() - start);
      // kept before any worker or client hears of it, so that a later leader places every reduce the same
      kept.placed(d.result());
      d.moves().stream().map(ReduceMove::shuffleId).distinct().forEach(earlier ->
          shuffles.peek(new ShuffleKey(app, earlier)).flatMap(ShuffleState::schedule).ifPresent(kept::placed));
    });
    return made;
  }

  /**
   * When the shuffle's last map just ended, the reduces the co-scheduler moves to even out the links, kept before
   * any worker or client hears of them; answered before the map's finish is, so a framework that starts the
   * reduces once every map has ended asks for the placement after the moves.
   */
  private Optional<CoScheduler.Decision> balanceIfDue(ShuffleState s) {
    String app = s.shuffle().appId();
    Optional<CoScheduler.Decision> made = coScheduler.balanceAtMapEnd(s, workers.live(),
        id -> shuffles.peek(new ShuffleKey(app, id)));
    made.ifPresent(d -> {
      metrics.movedAtMapEnd(d.moves().size());
      kept.placed(d.result());
    });
    return made;
  }

  /** What a worker did per shuffle since its last report, and what it holds on disk: for the status page. */
  private Message reportActivity(ReportWorkerActivity m) {
    requireLiveWorker(m.workerId());
    workers.spill(m.workerId(), m.spilledBytes(), m.spillFileBytes());
    for (org.scache.common.shuffle.ShuffleActivity a : m.shuffles()) {
      shuffles.ifPresent(new ShuffleKey(a.appId(), a.shuffleId()), s -> {
        s.traffic().add(m.workerId(), a, s.mapsDoneAtMillis().isPresent());
        a.reads().forEach(r -> metrics.reduceRead(s.schedule().flatMap(p -> p.workerOf(r.reduceId()))
            .map(w -> w.workerId().equals(m.workerId())).orElse(false), r.remoteBytes()));
      });
    }
    return new Ack();
  }

  /** Tells every live worker of a new placement, so the workers it names start prefetching. */
  private void broadcast(CoScheduler.Decision d) {
    notifier.tellAll(workers.live(), new ShuffleScheduled(d.result(), d.moves(), d.submissionTimeMillis()));
    placementWaiters.settleAll();
  }

  /**
   * A worker spilled from rounds or loaded them back whole: when that changes which rounds of a
   * shuffle are incomplete somewhere, every live worker is told, so that all spill those rounds first.
   */
  private Message reportRounds(ReportRounds m) {
    requireLiveWorker(m.workerId());
    incompleteRounds.report(m.workerId(), m.rounds()).forEach(this::tellIncompleteRounds);
    return new Ack();
  }

  private void tellIncompleteRounds(ShuffleRounds r) {
    notifier.tellAll(workers.live(), new RoundsIncomplete(r.appId(), r.shuffleId(), r.rounds()));
  }

  /** A worker lost blocks it held: their maps are lost (to be re-run) if they were final. */
  private Message reportLostBlocks(ReportLostBlocks m) {
    for (BlockId id : m.blockIds()) {
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
    return new Ack();
  }

  /** A reducer committed: every worker frees its input blocks. */
  private Message reduceCommitted(ReduceCommitted m) {
    applications.requireSecret(m.appId());
    notifier.tellAll(workers.live(), m);
    return new Ack();
  }

  /**
   * The application reads a shuffle where its maps ran: every worker stops prefetching it. The master's notices of
   * its finished maps still go out, since they also void the maps' other attempts on the workers.
   */
  private Message readInPlace(ReadInPlace m) {
    applications.requireSecret(m.appId());
    ShuffleKey key = new ShuffleKey(m.appId(), m.shuffleId());
    shuffles.withExisting(key, s -> s);
    metrics.readInPlace();
    LOG.info("{} is read where its maps ran: its blocks are no longer prefetched", key);
    notifier.tellAll(workers.live(), m);
    return new Ack();
  }

  /**
   * The application holds back, or lets go, the workers' copies of a shuffle it may read where its maps ran: every
   * worker is told. A worker that misses it copies the shuffle as it would unheld, or (missing the release) leaves its
   * reduces to read their blocks from the holders.
   */
  private Message holdCopies(HoldCopies m) {
    applications.requireSecret(m.appId());
    ShuffleKey key = new ShuffleKey(m.appId(), m.shuffleId());
    shuffles.withExisting(key, s -> s);
    if (m.held()) {
      metrics.copiesHeld();
    }
    LOG.info("{}: its copies to the reduces' hosts are {}", key, m.held() ? "held back" : "let go");
    notifier.tellAll(workers.live(), m);
    return new Ack();
  }

  /**
   * A map's final attempt; UNKNOWN_SHUFFLE for a shuffle whose registration was refused, so that the framework
   * learns at once that its map output has nowhere to go (a shuffle never registered may still be put to and read).
   */
  private Message mapFinished(MapFinished m) {
    applications.requireSecret(m.appId());
    List<MapOutputNotices.Notice> notices = new ArrayList<>();
    ShuffleKey key = new ShuffleKey(m.appId(), m.shuffleId());
    if (shuffles.wasRefused(key)) {
      throw new ScacheException(Status.UNKNOWN_SHUFFLE, key + " is not registered: its registration was refused, "
          + "so its finished map " + m.mapId() + " is not taken");
    }
    Optional<CoScheduler.Decision> made = shuffles.with(key, s -> {
      AttemptBlocks blocks = s.mapFinished(m.mapId(), m.attempt());
      s.mapsDoneIfAll(clock.millis());
      if (s.schedule().isPresent()) {
        Optional<CoScheduler.Decision> balanced = balanceIfDue(s);
        notices.addAll(MapOutputNotices.forFinishedMap(s, m.mapId(), m.attempt(), blocks, workers::get));
        return balanced;
      }
      return scheduleIfDue(s);
    });
    made.ifPresent(this::broadcast);
    notices.forEach(n -> noticeQueues.tell(n.to(), new MapOutputReady(n.shuffle().appId(),
        n.shuffle().shuffleId(), n.mapId(), n.attempt(), n.holder(), n.blocks())));
    // only this shuffle's placement can have become final at its map's end
    placementWaiters.settle(key);
    return new Ack();
  }

  private Message locate(LocateBlocks m) {
    return shuffles.withExisting(new ShuffleKey(m.appId(), m.shuffleId()), s -> {
      List<ShuffleState.BlockEntry> entries = m.mapId() < 0 ? s.finalBlocks(m.reduceId())
          : s.blocksOf(m.reduceId(), m.mapId());
      List<BlockLocation> found = new ArrayList<>(entries.size());
      List<String> lost = new ArrayList<>();
      for (ShuffleState.BlockEntry e : entries) {
        Optional<WorkerInfo> holder = workers.get(e.holder());
        if (holder.isPresent()) {
          found.add(new BlockLocation(new BlockId(m.appId(), m.shuffleId(), e.mapId(), e.attempt(), m.reduceId()),
              e.size(), holder.get()));
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
      int numMaps = s.shape().map(ShuffleSpec::numMaps).orElse(0);
      return new BlockLocations(numMaps, s.finishedMaps(), found);
    });
  }

  /**
   * The answer to an ask that waits for {@code key}'s placement ({@link PlacementWaiters}): present once every map
   * has ended and the shuffle is placed.
   */
  private Optional<Message> finalPlacement(ShuffleKey key) {
    return shuffles.withExisting(key, s -> {
      int numMaps = s.shape().map(ShuffleSpec::numMaps).orElse(Integer.MAX_VALUE);
      if (s.schedule().isEmpty() || s.finishedMaps() < numMaps) {
        return Optional.<Message>empty();
      }
      frames.checkAnswer(s.schedule().get());
      return Optional.<Message>of(new ScheduleResult(s.schedule().get()));
    });
  }

  /** A placement asked for with a wait, answered once final ({@link PlacementWaiters}); at once without one. */
  private CompletableFuture<Message> scheduleResultWaiting(GetScheduleResult m) {
    if (m.waitMillis() == 0) {
      return CompletableFuture.completedFuture(scheduleResult(m));
    }
    return placementWaiters.await(new ShuffleKey(m.appId(), m.shuffleId()), m.waitMillis());
  }

  private Message scheduleResult(GetScheduleResult m) {
    ShuffleKey key = new ShuffleKey(m.appId(), m.shuffleId());
    return shuffles.withExisting(key, s -> {
      if (s.schedule().isPresent()) {
        frames.checkAnswer(s.schedule().get());
        return new ScheduleResult(s.schedule().get());
      }
      s.shape().orElseThrow(() -> new ScacheException(Status.UNKNOWN_SHUFFLE,
          key + " has blocks but was never registered, so its reduce count is unknown"));
      if (workers.live().isEmpty()) {
        throw new ScacheException(Status.NOT_READY, "no live worker to place " + key + " on");
      }
      throw new ScacheException(Status.NOT_READY, key + " is not scheduled yet: " + coScheduler.waitingFor(s));
    });
  }

  private CompletableFuture<Message> unregisterShuffle(UnregisterShuffle m) {
    ShuffleKey key = new ShuffleKey(m.appId(), m.shuffleId());
    shuffles.remove(key);
    kept.removed(key);
    incompleteRounds.forgetShuffle(key);
    placementWaiters.settle(key);
    return notifier.tellAll(workers.live(), m).thenApply(told -> new Ack());
  }

  private CompletableFuture<Message> removeApplication(String appId) {
    applications.remove(appId);
    admission.removed(appId);
    shuffles.removeApplication(appId);
    kept.applicationRemoved(appId);
    coScheduler.forgetApplication(appId);
    incompleteRounds.forgetApplication(appId);
    placementWaiters.settleAll();
    LOG.info("application {} removed", appId);
    return notifier.tellAll(workers.live(), new RemoveApplication(appId)).thenApply(told -> new Ack());
  }

  private void requireLiveWorker(String workerId) {
    if (!workers.isLive(workerId)) {
      throw new ScacheException(Status.UNKNOWN_WORKER, "worker " + workerId + " is not registered");
    }
  }
}
