package org.scache.hadoop;

import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.TaskAttemptID;
import org.apache.hadoop.mapreduce.MRJobConfig;

/**
 * Whether a job's shuffle goes through SCache. The choice is made once per job and every task reads
 * it the same way:
 * <ol>
 *   <li>when the job runs under {@link ScacheAppMaster}, the application master decides at job start
 *       and hands its decision to every task container in the environment variable {@value #ENV};
 *   <li>otherwise the job configuration's {@code scache.enabled} is the decision, as
 *       {@link ScacheJob#enable} left it after checking the master at submission.
 * </ol>
 * Within an SCache job, a map attempt run again ({@link #writesAsHadoop}) writes as Hadoop's shuffle, and the
 * reduces read it from its NodeManager: the one exception, decided by the attempt's number alone, so that the map
 * and every reduce agree without asking anyone.
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
   * Whether a map attempt of an SCache job writes as Hadoop's shuffle, into its node's local directories, served by
   * the NodeManager's shuffle service: every attempt after the first (a map run again after a failed attempt, a
   * lost output, or a speculative copy). Whatever made SCache refuse or lose the first attempt's output (every
   * worker full, the application's share of each taken, a worker lost), the map does not meet it again, and the job
   * does not fail for it.
   */
  public static boolean writesAsHadoop(TaskAttemptID mapAttempt) {
    return mapAttempt.getId() > 0;
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
