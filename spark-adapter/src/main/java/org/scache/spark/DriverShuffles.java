package org.scache.spark;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.spark.ShuffleDependency;
import org.apache.spark.SparkContext;
import org.apache.spark.SparkContext$;
import org.scache.client.ScacheClient;
import org.scache.client.ShuffleHints;
import org.scache.client.ShuffleRoom;
import org.scache.common.Clock;
import org.scache.common.DaemonThreads;
import org.scache.common.protocol.BlockRoom;
import org.scache.common.shuffle.MapSample;
import org.scache.common.shuffle.PartitionerKind;
import org.scache.common.shuffle.ShufflePlacement;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The driver's side of SCache for one application: registers the application and each shuffle
 * (with its stage id for Algorithm 2), samples the input of range- and custom-partitioned shuffles,
 * answers where the master placed a shuffle's reduces, and removes the application at the end.
 */
final class DriverShuffles implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(DriverShuffles.class);
  private static final String DAG_EVENT_LOOP = "dag-scheduler-event-loop";
  private static final String SQL_EXECUTION_ID = "spark.sql.execution.id";
  /** How long a placement answered by the master is reused: a later shuffle of its stage may move its reduces. */
  private static final long PLACEMENT_REUSE_NANOS = TimeUnit.SECONDS.toNanos(1);
  /** How long past the placement wait the answer to the last ask of the master is waited for. */
  private static final long LAST_ASK_MILLIS = 1000;
  /** How long the workers' room answered by the master is reused. */
  static final long ROOM_REUSE_MILLIS = 1000;

  private record Cached(ShufflePlacement placement, long atNanos) {}

  private final ApplicationClient client;
  private final SparkScacheConf conf;
  private final Clock clock;
  private final ShuffleStages stages = new ShuffleStages();
  private final Map<Integer, Cached> placements = new ConcurrentHashMap<>();
  /** Shuffles the application reads where their maps ran, as told to the master. */
  private final Set<Integer> readInPlace = ConcurrentHashMap.newKeySet();
  /** Shuffles whose copies are held back, each with the master's answer to the hold, which a release waits for. */
  private final Map<Integer, CompletableFuture<Void>> held = new ConcurrentHashMap<>();
  /** Shuffles whose copies were let go after a hold: not held again. */
  private final Set<Integer> letGo = ConcurrentHashMap.newKeySet();
  private final ExecutorService sampling = Executors.newSingleThreadExecutor(DaemonThreads.named("scache-sampling"));
  private boolean registered;
  private BlockRoom room;
  private long roomAtNanos;
  /** The blocks of the application's shuffles through SCache; guarded by this. */
  private final OwnShuffleBlocks ownBlocks = OwnShuffleBlocks.fromMapStatuses();

  DriverShuffles(ApplicationClient client, SparkScacheConf conf, Clock clock) {
    this.client = client;
    this.conf = conf;
    this.clock = clock;
  }

  /**
   * Why shuffle {@code shuffleId} of {@code numMaps} × {@code numReduces} blocks does not fit in the cluster's workers
   * ({@link ShuffleRoom}); empty when it does, or when the master cannot tell (the puts find out then). The room for
   * this application is the master's room for one owner less the blocks of the application's own shuffles through
   * SCache ({@link OwnShuffleBlocks}): the master answers for any owner and does not know which worker's share they
   * fill. A shuffle that fits counts among them until it is unregistered ({@link #unbook}). The master's answer is
   * reused for {@value #ROOM_REUSE_MILLIS} ms: a job of many shuffles creates them one after the other, and the
   * workers report their blocks only at their heartbeats.
   */
  synchronized Optional<String> tooWide(int shuffleId, int numMaps, int numReduces) {
    try {
      BlockRoom now = blockRoom();
      long own = ownBlocks.total();
      Optional<String> problem = ShuffleRoom.problem(now, now.forOneOwner() - own, numMaps, numReduces);
      if (problem.isEmpty()) {
        ownBlocks.add(shuffleId, numMaps, numReduces);
      }
      return problem.map(why -> own == 0 ? why : why + "; this application's " + ownBlocks.shuffles()
          + " shuffles through SCache hold or may still put " + own + " blocks");
    } catch (RuntimeException e) {
      LOG.debug("the master did not tell the workers' room: {}", e.toString());
      return Optional.empty();
    }
  }

  /** The shuffle no longer counts in the application's blocks: unregistered, or not registered after all. */
  synchronized void unbook(int shuffleId) {
    ownBlocks.remove(shuffleId);
  }

  private BlockRoom blockRoom() {
    long now = clock.nanos();
    if (room == null || now - roomAtNanos >= TimeUnit.MILLISECONDS.toNanos(ROOM_REUSE_MILLIS)) {
      room = registeredClient().blockRoom();
      roomAtNanos = now;
    }
    return room;
  }

  /**
   * Registers a new shuffle with the master, one SCache map per map task; for a shuffle to sample, starts or runs
   * its sampling job.
   */
  <K, V, C> void register(int shuffleId, ShuffleDependency<K, V, C> dep, int numMaps) {
    ScacheClient c = registeredClient();
    PartitionerKind kind = PartitionerKinds.of(dep.partitioner());
    Optional<SparkContext> sc = Optional.ofNullable(SparkContext$.MODULE$.getActive().getOrElse(() -> null));
    Optional<String> sqlExecution = sc.map(s -> s.getLocalProperty(SQL_EXECUTION_ID));
    int stage = stages.stageOf(dep.partitioner(), sqlExecution);
    // Spark submits a reduce stage once its map stages are done: the master may still move reduces then
    int slots = sc.map(DriverShuffles::slotsPerHost).orElse(0);
    ShuffleHints hints = ShuffleHints.NONE.inStage(stage).withSlotsPerWorker(slots).startingReducesAfterMaps();
    boolean ranges = sqlExecution.isPresent() && sc.map(DriverShuffles::coalescesPartitions).orElse(false);
    c.registerShuffle(shuffleId, numMaps, dep.partitioner().numPartitions(), kind,
        ranges ? hints.readingRanges() : hints);
    placements.remove(shuffleId);
    String where = sqlExecution.map(id -> " (SQL execution " + id + ")")
        .orElse(" (thread " + Thread.currentThread().getName() + ")") + (ranges ? ", read in ranges" : "");
    LOG.info("shuffle {} through SCache: {} maps, {} reduces, {} partitioner, stage {}, {} reduces at once a host{}",
        shuffleId, numMaps, dep.partitioner().numPartitions(), kind, stage, slots == 0 ? "the master's" : slots, where);
    if (kind != PartitionerKind.HASH && numMaps > 0 && conf.get(SparkScacheOptions.SAMPLING_ENABLED)) {
      Runnable job = () -> sample(shuffleId, dep);
      if (Thread.currentThread().getName().equals(DAG_EVENT_LOOP)) {
        // the scheduler's own thread cannot wait for a job: sample in the background, best effort
        sampling.execute(job);
      } else {
        job.run();
      }
    }
  }

  /**
   * Whether Spark SQL's adaptive execution may coalesce a shuffle's partitions, so that one reduce task
   * reads a range of consecutive reduces (both settings are on by default in Spark 3.5).
   */
  static boolean coalescesPartitions(SparkContext sc) {
    return sc.conf().getBoolean("spark.sql.adaptive.enabled", true)
        && sc.conf().getBoolean("spark.sql.adaptive.coalescePartitions.enabled", true);
  }

  /**
   * The reduce tasks one host runs at once: the application's task slots (Spark's default parallelism
   * is its executors' cores) over the hosts its executors are on; 0 (the master's number) before any
   * executor has registered.
   */
  static int slotsPerHost(SparkContext sc) {
    Set<String> hosts = new java.util.HashSet<>();
    scala.collection.Iterator<String> it = sc.getExecutorMemoryStatus().keysIterator();
    String driver = sc.env().blockManager().blockManagerId().hostPort();
    while (it.hasNext()) {
      String hostPort = it.next();
      if (!hostPort.equals(driver) || sc.isLocal()) {
        hosts.add(hostPort.substring(0, hostPort.lastIndexOf(':')));
      }
    }
    return hosts.isEmpty() ? 0 : Math.max(1, (sc.defaultParallelism() + hosts.size() - 1) / hosts.size());
  }

  private <K, V, C> void sample(int shuffleId, ShuffleDependency<K, V, C> dep) {
    try {
      long start = clock.nanos();
      List<MapSample> samples = RangeSampler.sample(dep, conf.get(SparkScacheOptions.SAMPLES_PER_REDUCE), shuffleId);
      client.get().reportSamples(shuffleId, samples);
      LOG.info("shuffle {}: sampled {} map partitions in {} ms", shuffleId, samples.size(),
          TimeUnit.NANOSECONDS.toMillis(clock.nanos() - start));
    } catch (RuntimeException e) {
      LOG.warn("shuffle {}: sampling failed ({}); the master predicts it by regression", shuffleId, e.toString());
    }
  }

  /** Where the master placed the shuffle's reduces, waiting at most {@code wait}; empty if not (yet) placed. */
  Optional<ShufflePlacement> placement(int shuffleId, Duration wait) {
    Cached cached = placements.get(shuffleId);
    if (cached != null && clock.nanos() - cached.atNanos() < PLACEMENT_REUSE_NANOS) {
      return Optional.of(cached.placement());
    }
    long start = clock.nanos();
    try {
      // the master answers once the maps' last ends reach it, which the map tasks do not wait for
      ShufflePlacement p = client.get().awaitScheduleResult(shuffleId, wait)
          .get(wait.toMillis() + LAST_ASK_MILLIS, TimeUnit.MILLISECONDS);
      placements.put(shuffleId, new Cached(p, clock.nanos()));
      LOG.debug("shuffle {}: placement answered after {} us", shuffleId,
          TimeUnit.NANOSECONDS.toMicros(clock.nanos() - start));
      return Optional.of(p);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    } catch (Exception e) {
      LOG.debug("no SCache placement of shuffle {}: {}", shuffleId, e.toString());
      return Optional.empty();
    }
  }

  /**
   * Tells the master, once and without waiting, that the shuffle is read where its maps ran, so that the workers
   * stop copying its blocks to its reduces' hosts: adaptive execution chose local reads once its maps were done.
   */
  void readInPlace(int shuffleId, String seenFrom) {
    if (!readInPlace.add(shuffleId)) {
      return;
    }
    LOG.info("shuffle {} is read map by map where its maps ran (adaptive execution's local reads, seen {}): SCache "
        + "stops prefetching it", shuffleId, seenFrom);
    CompletableFuture<Void> hold = held.remove(shuffleId);
    // after a hold, said once the master took the hold, as a release is: each worker learns them in that order
    (hold == null ? CompletableFuture.<Void>completedFuture(null) : hold)
        .handle((v, e) -> null).thenCompose(v -> client.get().readInPlaceAsync(shuffleId)).whenComplete((v, e) -> {
          if (e != null) {
            LOG.debug("the master did not take that shuffle {} is read in place: {}", shuffleId, e.toString());
          }
        });
  }

  /**
   * Tells the master, once and without waiting, to hold back the workers' copies of the shuffle: the application may
   * still read it where its maps ran ({@code why}). Not said of a shuffle let go or read in place.
   */
  void holdCopies(int shuffleId, String why) {
    if (readInPlace.contains(shuffleId) || letGo.contains(shuffleId) || held.containsKey(shuffleId)) {
      return;
    }
    CompletableFuture<Void> told = new CompletableFuture<>();
    if (held.putIfAbsent(shuffleId, told) != null) {
      return;
    }
    LOG.info("shuffle {}: SCache holds back its copies to the reduces' hosts, {}", shuffleId, why);
    client.get().holdCopiesAsync(shuffleId, true).whenComplete((v, e) -> {
      if (e != null) {
        LOG.debug("the master did not take the hold of shuffle {}'s copies: {}", shuffleId, e.toString());
      }
      told.complete(null);
    });
  }

  /** Lets go the workers' copies of the shuffle, held back before ({@code why}); once, without waiting. */
  void releaseCopies(int shuffleId, String why) {
    CompletableFuture<Void> hold = held.remove(shuffleId);
    if (hold == null || !letGo.add(shuffleId)) {
      return;
    }
    LOG.info("shuffle {}: SCache copies it to the reduces' hosts now, {}", shuffleId, why);
    hold.thenCompose(v -> client.get().holdCopiesAsync(shuffleId, false)).whenComplete((v, e) -> {
      if (e != null) {
        LOG.debug("the master did not take the release of shuffle {}'s copies: {}", shuffleId, e.toString());
      }
    });
  }

  /** Whether the workers' copies of the shuffle are held back. */
  boolean copiesHeld(int shuffleId) {
    return held.containsKey(shuffleId);
  }

  /** Frees the shuffle's blocks on every worker. */
  void unregister(int shuffleId) {
    unbook(shuffleId);
    placements.remove(shuffleId);
    readInPlace.remove(shuffleId);
    held.remove(shuffleId);
    letGo.remove(shuffleId);
    try {
      client.get().unregisterShuffle(shuffleId);
    } catch (RuntimeException e) {
      LOG.warn("could not unregister shuffle {} from SCache: {}", shuffleId, e.toString());
    }
  }

  /** Registers the application with SCache, if it is not yet: before its first shuffle, or at it. */
  void registerApplication() {
    registeredClient();
  }

  private synchronized ScacheClient registeredClient() {
    ScacheClient c = client.get();
    if (!registered) {
      c.registerApplication();
      registered = true;
    }
    return c;
  }

  /** Frees everything the application stored, on every worker. */
  @Override
  public void close() {
    sampling.shutdownNow();
    synchronized (this) {
      if (registered) {
        try {
          client.get().removeApplication();
        } catch (RuntimeException e) {
          LOG.warn("could not remove application {} from SCache: {}", client.appId(), e.toString());
        }
      }
    }
  }
}
