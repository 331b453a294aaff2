package org.scache.spark;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;
import org.apache.spark.ShuffleDependency;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkEnv;
import org.apache.spark.TaskContext;
import org.apache.spark.shuffle.ShuffleBlockResolver;
import org.apache.spark.shuffle.ShuffleHandle;
import org.apache.spark.shuffle.ShuffleManager;
import org.apache.spark.shuffle.ShuffleReadMetricsReporter;
import org.apache.spark.shuffle.ShuffleReader;
import org.apache.spark.shuffle.ShuffleWriteMetricsReporter;
import org.apache.spark.shuffle.ShuffleWriter;
import org.apache.spark.shuffle.sort.SortShuffleManager;
import org.apache.spark.storage.BlockManagerId;
import org.apache.spark.storage.BlockManagerId$;
import org.scache.client.BlockBuffers;
import org.scache.client.MasterCheck;
import org.scache.common.Clock;
import org.scache.common.DaemonThreads;
import org.scache.common.ScacheException;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import org.scache.common.ha.Locator;
import org.scache.common.shuffle.ShufflePlacement;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Option;

/**
 * Spark's {@code spark.shuffle.manager} for shuffling through SCache. When the application starts,
 * the driver asks the SCache master for its live workers: if it answers with at least one, every
 * shuffle of the application goes through SCache; otherwise every shuffle uses Spark's sort shuffle
 * and the driver logs one warning. Map tasks put one block per partition into the worker on their
 * node; reduce tasks read their input through that worker; the driver registers each shuffle so
 * that the master predicts and places its reduces (see {@link ScachePlacementPlugin} for running
 * them where they were placed).
 */
public final class ScacheShuffleManager implements ShuffleManager {
  private static final Logger LOG = LoggerFactory.getLogger(ScacheShuffleManager.class);
  /** The executor id of the location a map status names: SCache's worker holds the output, not the executor. */
  static final String SCACHE_EXECUTOR_PREFIX = "scache@";

  private final SparkConf sparkConf;
  private final boolean isDriver;
  private final SparkScacheConf conf;
  private final SortShuffleManager sort;
  private final boolean active;
  /** The map tasks' partition chunks, kept for reuse by this executor's tasks. */
  private final BlockBuffers chunkPool;
  private final Object lock = new Object();
  /**
   * Set by the placement plugin on an executor whose shuffle manager does not exist yet when the plugins start (Spark
   * 4 makes it after them, Spark 3.5 before): the manager then readies the executor as it is made.
   */
  private static volatile boolean prepareWhenMade;
  private ApplicationClient client;
  private DriverShuffles driver;

  public ScacheShuffleManager(SparkConf sparkConf, boolean isDriver) {
    this.sparkConf = sparkConf;
    this.isDriver = isDriver;
    this.conf = new SparkScacheConf(sparkConf);
    this.sort = new SortShuffleManager(sparkConf);
    this.active = isDriver && masterUsable();
    this.chunkPool = new BlockBuffers(conf.get(SparkScacheOptions.CHUNK_POOL));
    if (active && !sparkConf.contains(SparkScacheOptions.APP_SECRET_KEY)) {
      byte[] secret = new byte[32];
      new SecureRandom().nextBytes(secret);
      // executors receive the driver's configuration when they start; the key name has Spark redact it
      sparkConf.set(SparkScacheOptions.APP_SECRET_KEY, Base64.getEncoder().encodeToString(secret));
    }
    if (!isDriver && prepareWhenMade) {
      prepareExecutor();
    }
  }

  /** Readies this executor's SCache path, now if its shuffle manager is SCache's, else as soon as it is made. */
  static void prepareExecutorOf(SparkEnv env) {
    if (env.shuffleManager() instanceof ScacheShuffleManager manager) {
      manager.prepareExecutor();
    } else if (env.shuffleManager() == null) {
      prepareWhenMade = true;
    }
  }

  /** Whether the driver shuffles through SCache (decided once, at start; executors follow the handles). */
  public boolean isActive() {
    return active;
  }

  private boolean masterUsable() {
    ScacheConf scache = conf.scache();
    MasterCheck.Result check = MasterCheck.run(scache, conf.get(SparkScacheOptions.START_CHECK_TIMEOUT));
    if (check.problem().isPresent()) {
      LOG.warn("{}: this application shuffles with Spark's sort shuffle", check.problem().get());
      return false;
    }
    LOG.info("shuffling through SCache: master {} lists {} live workers",
        Locator.describeMaster(scache, ScacheOptions.CLIENT_MASTER_ADDRESS), check.workers().size());
    return true;
  }

  @Override
  public <K, V, C> ShuffleHandle registerShuffle(int shuffleId, ShuffleDependency<K, V, C> dependency) {
    if (!active) {
      return sort.registerShuffle(shuffleId, dependency);
    }
    int numMaps = dependency.rdd().partitions().length;
    Optional<String> tooWide = driver().tooWide(shuffleId, numMaps, dependency.partitioner().numPartitions());
    if (tooWide.isPresent()) {
      LOG.warn("shuffle {} uses Spark's sort shuffle: it does not fit in SCache: {}", shuffleId, tooWide.get());
      return sort.registerShuffle(shuffleId, dependency);
    }
    try {
      driver().register(shuffleId, dependency, numMaps);
    } catch (ScacheException e) {
      // refused (a limit of the application's, a master that cannot be reached): the job goes on without SCache
      driver().unbook(shuffleId);
      LOG.warn("shuffle {} uses Spark's sort shuffle: SCache did not register it: {}", shuffleId, e.getMessage());
      return sort.registerShuffle(shuffleId, dependency);
    }
    return new ScacheShuffleHandle<>(shuffleId, dependency, appId(), numMaps);
  }

  @Override
  @SuppressWarnings("unchecked")
  public <K, V> ShuffleWriter<K, V> getWriter(ShuffleHandle handle, long mapId, TaskContext context,
      ShuffleWriteMetricsReporter metrics) {
    if (!(handle instanceof ScacheShuffleHandle)) {
      return sort.getWriter(handle, mapId, context, metrics);
    }
    ApplicationClient c = client();
    if (SortShuffleRetryWriter.runsAgain(context)) {
      return new SortShuffleRetryWriter<>(sort.getWriter(handle, mapId, context, metrics), c.get(),
          handle.shuffleId(), context, mapId);
    }
    String worker = workerAddress();
    BlockManagerId location = BlockManagerId$.MODULE$.apply(SCACHE_EXECUTOR_PREFIX + worker,
        SparkEnv.get().blockManager().blockManagerId().host(), port(worker), Option.empty());
    return new ScacheShuffleWriter<>((ScacheShuffleHandle<K, V, ?>) handle, c.get(), mapId, context, metrics, location,
        conf.get(SparkScacheOptions.PUT_BUFFER), chunkPool);
  }

  @Override
  @SuppressWarnings("unchecked")
  public <K, C> ShuffleReader<K, C> getReader(ShuffleHandle handle, int startMapIndex, int endMapIndex,
      int startPartition, int endPartition, TaskContext context, ShuffleReadMetricsReporter metrics) {
    if (!(handle instanceof ScacheShuffleHandle)) {
      return sort.getReader(handle, startMapIndex, endMapIndex, startPartition, endPartition, context, metrics);
    }
    return new ScacheShuffleReader<>((ScacheShuffleHandle<K, ?, C>) handle, client().get(), startMapIndex,
        endMapIndex, startPartition, endPartition, context, metrics);
  }

  @Override
  public boolean unregisterShuffle(int shuffleId) {
    boolean removed = sort.unregisterShuffle(shuffleId);
    if (active) {
      driver().unregister(shuffleId);
    }
    return removed;
  }

  @Override
  public ShuffleBlockResolver shuffleBlockResolver() {
    return sort.shuffleBlockResolver();
  }

  /**
   * Where the master placed a shuffle's reduces (driver only; empty when SCache is not in use), waiting at
   * most {@code spark.scache.placement.wait}: what tools and benchmarks compare the reduce tasks' hosts with.
   */
  public java.util.Optional<ShufflePlacement> placement(int shuffleId) {
    if (!active) {
      return java.util.Optional.empty();
    }
    return driver().placement(shuffleId, conf.get(SparkScacheOptions.PLACEMENT_WAIT));
  }

  /**
   * The application reads an SCache shuffle map by map where its maps ran (driver only; Spark SQL's local shuffle
   * reads): the workers stop prefetching its reduces, said once per shuffle; {@code seenFrom} says how the driver
   * learnt it, for the log.
   */
  void readInPlace(int shuffleId, String seenFrom) {
    if (active) {
      driver().readInPlace(shuffleId, seenFrom);
    }
  }

  /**
   * Holds back the workers' copies of an SCache shuffle that the application may still read where its maps ran
   * (driver only): said once per shuffle, never after it was let go or said to be read in place.
   */
  void holdCopies(int shuffleId, String why) {
    if (active) {
      driver().holdCopies(shuffleId, why);
    }
  }

  /** Lets go the workers' copies of a shuffle held back (driver only); nothing if it is not held. */
  void releaseCopies(int shuffleId, String why) {
    if (active) {
      driver().releaseCopies(shuffleId, why);
    }
  }

  /** Whether the driver holds back the workers' copies of the shuffle. */
  boolean copiesHeld(int shuffleId) {
    return active && driver().copiesHeld(shuffleId);
  }

  /**
   * Registers the application with SCache now, on a thread of its own, rather than at its first shuffle (driver
   * only, once its application id is known): the executors can then open their path to their workers before their
   * first task, and the first shuffle's registration waits for one round trip less.
   */
  void registerApplicationAhead() {
    if (active) {
      DaemonThreads.named("scache-register-application").newThread(() -> {
        try {
          driver().registerApplication();
        } catch (RuntimeException e) {
          LOG.debug("registering the application ahead of its first shuffle failed; its first shuffle registers it: {}",
              e.toString());
        }
      }).start();
    }
  }

  /**
   * Readies this executor's SCache path while it waits for its first task (executors only; called once their block
   * manager knows their host): makes the allocator of the map tasks' partition chunks, then opens the client, its
   * connection to the node's worker and the worker's shared memory, on a thread of its own, which the first task
   * would otherwise do while the executor's other tasks wait for it. Does nothing when the driver does not shuffle
   * through SCache (it sent no application secret).
   */
  void prepareExecutor() {
    if (isDriver || sparkConf.get(SparkScacheOptions.APP_SECRET_KEY, "").isEmpty()) {
      return;
    }
    DaemonThreads.named("scache-executor-prepare").newThread(new ExecutorPathOpener(chunkPool, () -> client().get(),
        d -> Thread.sleep(d.toMillis()))).start();
  }

  @Override
  public void stop() {
    sort.stop();
    synchronized (lock) {
      if (driver != null) {
        driver.close();
      }
      if (client != null) {
        client.close();
      }
    }
  }

  private DriverShuffles driver() {
    synchronized (lock) {
      if (driver == null) {
        driver = new DriverShuffles(client(), conf, Clock.SYSTEM);
      }
      return driver;
    }
  }

  private ApplicationClient client() {
    synchronized (lock) {
      if (client == null) {
        String secret = sparkConf.get(SparkScacheOptions.APP_SECRET_KEY, "");
        if (secret.isEmpty()) {
          throw new IllegalStateException("the driver sent no SCache secret (" + SparkScacheOptions.APP_SECRET_KEY
              + "): is " + getClass().getName() + " the driver's spark.shuffle.manager too?");
        }
        client = new ApplicationClient(conf.scache(), appId(), Base64.getDecoder().decode(secret),
            this::workerAddress);
      }
      return client;
    }
  }

  private String appId() {
    return sparkConf.getAppId();
  }

  private String workerAddress() {
    return conf.workerAddress(SparkEnv.get().blockManager().blockManagerId().host(), System.getenv());
  }

  private static int port(String hostPort) {
    return Integer.parseInt(hostPort.substring(hostPort.lastIndexOf(':') + 1));
  }


}
