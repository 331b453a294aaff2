package org.scache.tez;

import java.time.Duration;
import org.apache.hadoop.conf.Configuration;
import org.apache.tez.dag.api.TezConfiguration;
import org.scache.common.config.ScacheConf;
import org.scache.yarn.HadoopScacheConf;
import org.scache.yarn.YarnOptions;

/**
 * How the Tez adapter reads its configuration ({@link TezScacheOptions}, and SCache's own keys) and
 * the keys written into the payloads of the edges and vertex managers SCache creates
 * ({@link ScacheDagRewrite}, {@link ScacheTezDag}).
 */
public final class TezScacheSettings {
  /** Set in SCache edge payloads: the edge's number among the DAG's SCache edges. */
  static final String EDGE_ORDINAL = "scache.tez.edge.ordinal";
  /** Set in SCache edge payloads: the number of the consumer vertex among the DAG's consumers. */
  static final String STAGE_ORDINAL = "scache.tez.stage.ordinal";
  /** Prefix, in a vertex manager's payload, of the edge ordinal of each SCache input, by source vertex name. */
  static final String SOURCE_EDGE_ORDINAL_PREFIX = "scache.tez.edge.ordinal.from.";

  /** Edges (and consumer vertices) one DAG may have that shuffle through SCache. */
  static final int MAX_EDGES_PER_DAG = 1000;

  private TezScacheSettings() {}

  static boolean enabled(Configuration conf) {
    return conf.getBoolean(TezScacheOptions.ENABLED.key(), false);
  }

  /** A duration key of {@link TezScacheOptions} as {@code conf} sets it, or its default. */
  static Duration duration(Configuration conf, org.scache.common.config.ConfigEntry<Duration> key) {
    return scacheConf(conf).get(key);
  }

  /** The SCache client settings of a Tez configuration. */
  static ScacheConf scacheConf(Configuration conf) {
    return HadoopScacheConf.from(conf);
  }

  /** The auxiliary service whose metadata names the node's SCache worker. */
  static String auxServiceName(Configuration conf) {
    return scacheConf(conf).get(YarnOptions.AUX_SERVICE_NAME);
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
