package org.scache.spark;

import java.lang.reflect.Field;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import org.apache.spark.SparkContext;
import org.apache.spark.SparkEnv;
import org.apache.spark.api.plugin.DriverPlugin;
import org.apache.spark.api.plugin.ExecutorPlugin;
import org.apache.spark.api.plugin.PluginContext;
import org.apache.spark.api.plugin.SparkPlugin;
import org.apache.spark.scheduler.DAGScheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Spark plugin ({@code spark.plugins}) that makes reduce tasks run where SCache placed them, on a
 * stock Spark 3.5 distribution. When the driver's context has started (the plugin's
 * {@code registerMetrics}, the last step of SparkContext's start, before any job), it replaces the
 * context's DAG scheduler with a {@link PlacingDagScheduler} and stops the first one's event loop.
 * This rests on members Spark declares {@code private[spark]} (public in its bytecode):
 * {@code SparkContext.dagScheduler_=}, the DAG scheduler's constructor, {@code getPreferredLocs},
 * {@code submitJob} and {@code eventProcessLoop}; {@code docs/deploy-spark.md} says why this hook.
 *
 * <p>It also readies SCache ahead of the first job: the driver registers the application as its context starts, and
 * each executor, once its block manager is up, opens its path to its node's worker before its first task needs it
 * ({@link ExecutorPathOpener}).
 */
public final class ScachePlacementPlugin implements SparkPlugin {
  private static final Logger LOG = LoggerFactory.getLogger(ScachePlacementPlugin.class);

  @Override
  public DriverPlugin driverPlugin() {
    return new DriverPlugin() {
      private SparkContext sc;

      @Override
      public Map<String, String> init(SparkContext context, PluginContext pluginContext) {
        this.sc = context;
        return Map.of();
      }

      @Override
      public void registerMetrics(String appId, PluginContext pluginContext) {
        install(sc);
        if (SparkEnv.get().shuffleManager() instanceof ScacheShuffleManager manager) {
          manager.registerApplicationAhead();
        }
      }
    };
  }

  /** On an executor: opens its path to its node's SCache worker before its first task (the block manager is up). */
  @Override
  public ExecutorPlugin executorPlugin() {
    return new ExecutorPlugin() {
      @Override
      public void init(PluginContext ctx, Map<String, String> extraConf) {
        ScacheShuffleManager.prepareExecutorOf(SparkEnv.get());
      }
    };
  }

  /** Installs the placing DAG scheduler in {@code sc}, if SCache is its shuffle manager and in use. */
  static void install(SparkContext sc) {
    if (!(SparkEnv.get().shuffleManager() instanceof ScacheShuffleManager manager) || !manager.isActive()) {
      LOG.info("SCache is not this application's shuffle: reduce tasks are placed by Spark alone");
      return;
    }
    DAGScheduler first = sc.dagScheduler();
    if (first instanceof PlacingDagScheduler) {
      return;
    }
    sc.dagScheduler_$eq(new PlacingDagScheduler(sc, manager));
    first.eventProcessLoop().stop();
    shutDownQuietly(first, "messageScheduler");
    shutDownQuietly(first, "shuffleMergeFinalizeScheduler");
    LOG.info("reduce tasks of SCache shuffles prefer the hosts SCache placed them on");
    if (AdaptiveLocalReads.available()) {
      sc.addSparkListener(new AdaptiveLocalReads(manager,
          new SparkScacheConf(sc.conf()).get(SparkScacheOptions.HOLD_BROADCAST_CANDIDATES)));
    }
  }

  /** Stops a thread pool of the replaced scheduler, which nothing uses any more. */
  private static void shutDownQuietly(DAGScheduler scheduler, String field) {
    try {
      Field f = DAGScheduler.class.getDeclaredField(field);
      f.setAccessible(true);
      if (f.get(scheduler) instanceof ExecutorService pool) {
        pool.shutdownNow();
      }
    } catch (ReflectiveOperationException | RuntimeException e) {
      LOG.debug("cannot stop {} of the replaced DAG scheduler: {}", field, e.toString());
    }
  }
}
