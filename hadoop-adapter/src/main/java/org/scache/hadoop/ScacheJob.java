package org.scache.hadoop;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.scache.client.ScacheClient;
import org.scache.common.ScacheException;
import org.scache.common.WorkerInfo;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The job switch: {@link #enable} makes a MapReduce job shuffle through SCache, after checking at
 * submission that the SCache master answers and has a live worker. When it does not, the job is
 * left on Hadoop's own shuffle and one warning says why; a job never fails because SCache is down.
 */
public final class ScacheJob {
  private static final Logger LOG = LoggerFactory.getLogger(ScacheJob.class);

  private ScacheJob() {}

  /**
   * Sets {@code scache.enabled=true} and what it needs: the map output collector, the reduce shuffle
   * consumer, the auxiliary service as a shuffle provider (so the NodeManagers hand it the job's
   * token), and no map speculation (two attempts of one map would race to be final). Returns false,
   * with {@code scache.enabled=false} and the job otherwise unchanged, when SCache is unreachable.
   */
  public static boolean enable(Configuration conf) {
    ScacheConf scache = HadoopScacheConf.from(conf);
    Optional<String> problem = checkMaster(scache);
    if (problem.isPresent()) {
      conf.setBoolean(ScacheOptions.HADOOP_ENABLED.key(), false);
      LOG.warn("SCache is not usable ({}); this job runs on Hadoop's own shuffle", problem.get());
      return false;
    }
    conf.setBoolean(ScacheOptions.HADOOP_ENABLED.key(), true);
    conf.set(MRJobConfig.MAP_OUTPUT_COLLECTOR_CLASS_ATTR, ScacheMapOutputCollector.class.getName());
    conf.set(MRConfig.SHUFFLE_CONSUMER_PLUGIN, ScacheShuffleConsumerPlugin.class.getName());
    String service = scache.get(ScacheOptions.HADOOP_AUX_SERVICE_NAME);
    List<String> providers = new ArrayList<>(conf.getTrimmedStringCollection(
        MRJobConfig.MAPREDUCE_JOB_SHUFFLE_PROVIDER_SERVICES));
    if (!providers.contains(service)) {
      providers.add(service);
    }
    conf.setStrings(MRJobConfig.MAPREDUCE_JOB_SHUFFLE_PROVIDER_SERVICES, providers.toArray(String[]::new));
    conf.setBoolean(MRJobConfig.MAP_SPECULATIVE, false);
    return true;
  }

  /** Whether {@link #enable} turned SCache on for this configuration. */
  public static boolean isEnabled(Configuration conf) {
    return conf.getBoolean(ScacheOptions.HADOOP_ENABLED.key(), false);
  }

  /** Why SCache cannot serve a job now, if it cannot. */
  static Optional<String> checkMaster(ScacheConf scache) {
    Duration timeout = scache.get(ScacheOptions.HADOOP_SUBMIT_CHECK_TIMEOUT);
    String master = scache.get(ScacheOptions.CLIENT_MASTER_ADDRESS);
    ScacheConf probe = scache.with(ScacheOptions.CLIENT_REQUEST_TIMEOUT.key(), timeout.toMillis() + "ms")
        .with(ScacheOptions.NETWORK_CONNECT_TIMEOUT.key(), timeout.toMillis() + "ms")
        .with(ScacheOptions.CLIENT_RETRY_MAX, 1);
    try (ScacheClient client = ScacheClient.create(probe, "scache-submission-check",
        "unused".getBytes(StandardCharsets.UTF_8))) {
      List<WorkerInfo> workers = client.workers();
      if (workers.isEmpty()) {
        return Optional.of("the master at " + master + " has no live worker");
      }
      return Optional.empty();
    } catch (ScacheException e) {
      return Optional.of("the master at " + master + " did not answer: " + e.getMessage());
    } catch (RuntimeException e) {
      return Optional.of("the master at " + master + " could not be asked: " + e);
    }
  }
}
