package org.scache.hadoop;

import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.MRJobConfig;

/**
 * Whether a job's shuffle goes through SCache. The choice is made once per job and every task reads
 * it the same way, so one shuffle never mixes SCache and Hadoop's shuffle:
 * <ol>
 *   <li>when the job runs under {@link ScacheAppMaster}, the application master decides at job start
 *       and hands its decision to every task container in the environment variable {@value #ENV};
 *   <li>otherwise the job configuration's {@code scache.enabled} is the decision, as
 *       {@link ScacheJob#enable} left it after checking the master at submission.
 * </ol>
 */
public final class ShuffleChoice {
  /** Environment variable of map and reduce containers carrying the application master's decision. */
  static final String ENV = "SCACHE_SHUFFLE";

  private ShuffleChoice() {}

  /** Whether this task shuffles through SCache. */
  public static boolean forTask(JobConf job, Map<String, String> env) {
    String decided = env.get(ENV);
    if (decided != null && !decided.isBlank()) {
      return Boolean.parseBoolean(decided.trim());
    }
    return job.getBoolean(MapReduceOptions.ENABLED.key(), false);
  }

  /**
   * Records the application master's decision in the configuration its task containers are built from:
   * the environment variable of every map and reduce container, and {@code scache.enabled} itself.
   */
  static void passToTasks(Configuration amConf, boolean useScache) {
    amConf.set(MRJobConfig.MAP_ENV + "." + ENV, Boolean.toString(useScache));
    amConf.set(MRJobConfig.REDUCE_ENV + "." + ENV, Boolean.toString(useScache));
    amConf.setBoolean(MapReduceOptions.ENABLED.key(), useScache);
  }
}
