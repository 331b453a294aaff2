package org.scache.tez;

import java.time.Duration;
import org.apache.hadoop.conf.Configuration;
import org.apache.tez.dag.api.TezConfiguration;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import org.scache.hadoop.HadoopScacheConf;

/**
 * The configuration keys of the Tez adapter. The worker and client keys are SCache's own
 * ({@code scache.worker.*}, {@code scache.client.*}, see docs/configuration.md); these are the
 * Tez-specific ones, read from the configuration given to {@link ScacheTezDag} and carried to the
 * tasks and the vertex manager in the payloads of the edges and vertex managers it creates.
 */
public final class TezScacheSettings {
  /** The switch: true makes the DAGs built with {@link ScacheTezDag} shuffle through SCache. */
  public static final String ENABLED = "scache.tez.shuffle.enabled";
  /** How long the consumer's vertex manager waits for the pre-schedule once every producer has finished. */
  public static final String SCHEDULE_WAIT = "scache.tez.placement.schedule.wait";
  static final String SCHEDULE_WAIT_DEFAULT = "10s";
  /** How often a consumer input reports again a producer attempt whose block is lost. */
  public static final String READ_ERROR_REPORT_INTERVAL = "scache.tez.input.read.error.report.interval";
  static final String READ_ERROR_REPORT_INTERVAL_DEFAULT = "3s";
  /** Longest wait of a consumer input for a new attempt of a producer whose block is lost. */
  public static final String LOST_INPUT_TIMEOUT = "scache.tez.input.lost.timeout";
  static final String LOST_INPUT_TIMEOUT_DEFAULT = "10m";

  /** Set by {@link ScacheTezDag} in edge payloads: the edge's number among the DAG's SCache edges. */
  static final String EDGE_ORDINAL = "scache.tez.edge.ordinal";
  /** Set by {@link ScacheTezDag} in edge payloads: the number of the consumer vertex among the DAG's consumers. */
  static final String STAGE_ORDINAL = "scache.tez.stage.ordinal";
  /** Prefix, in a vertex manager's payload, of the edge ordinal of each SCache input, by source vertex name. */
  static final String SOURCE_EDGE_ORDINAL_PREFIX = "scache.tez.edge.ordinal.from.";

  /** Edges (and consumer vertices) one DAG may have that shuffle through SCache. */
  static final int MAX_EDGES_PER_DAG = 1000;

  private TezScacheSettings() {}

  static boolean enabled(Configuration conf) {
    return conf.getBoolean(ENABLED, false);
  }

  static Duration duration(Configuration conf, String key, String defaultValue) {
    return Duration.ofMillis(conf.getTimeDuration(key, defaultValue, java.util.concurrent.TimeUnit.MILLISECONDS));
  }

  /** The SCache client settings of a Tez configuration. */
  static ScacheConf scacheConf(Configuration conf) {
    return HadoopScacheConf.from(conf);
  }

  /** The auxiliary service whose metadata names the node's SCache worker. */
  static String auxServiceName(Configuration conf) {
    return scacheConf(conf).get(ScacheOptions.HADOOP_AUX_SERVICE_NAME);
  }

  /** The auxiliary service Tez hands the DAG's job token to (the task's consumer metadata of it is the token). */
  static String tezShuffleServiceName(Configuration conf) {
    return conf.get(TezConfiguration.TEZ_AM_SHUFFLE_AUXILIARY_SERVICE_ID,
        TezConfiguration.TEZ_AM_SHUFFLE_AUXILIARY_SERVICE_ID_DEFAULT);
  }

  /** The SCache shuffle of one Tez edge: unique within the application, also across the DAGs of a session. */
  static int shuffleId(int dagId, int edgeOrdinal) {
    return checkedId(dagId, edgeOrdinal);
  }

  /** The SCache stage of a consumer vertex: the shuffles of its inputs are placed together (Algorithm 2). */
  static int stageId(int dagId, int stageOrdinal) {
    return checkedId(dagId, stageOrdinal);
  }

  private static int checkedId(int dagId, int ordinal) {
    if (ordinal < 0 || ordinal >= MAX_EDGES_PER_DAG) {
      throw new IllegalArgumentException("SCache edge or stage ordinal out of range: " + ordinal);
    }
    long id = (long) dagId * MAX_EDGES_PER_DAG + ordinal;
    if (dagId < 0 || id > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("DAG " + dagId + " is beyond the SCache shuffle ids of one application");
    }
    return (int) id;
  }
}
