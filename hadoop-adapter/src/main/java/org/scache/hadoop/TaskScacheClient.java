package org.scache.hadoop;

import java.io.IOException;
import javax.crypto.SecretKey;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.scache.client.ScacheClient;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import org.scache.common.network.ClientTransport;
import org.scache.yarn.HadoopScacheConf;
import org.scache.yarn.NodeWorkerAddress;
import org.scache.yarn.YarnOptions;

/**
 * Opens the ScacheClient of a map or reduce task: the YARN application id as SCache application,
 * the job's shuffle secret (the token the auxiliary service registered) as its secret, the worker
 * of the task's own NodeManager as the local worker, and blocking connections unless the job says
 * otherwise.
 */
public final class TaskScacheClient {
  /** MapReduce has one shuffle per job. */
  public static final int SHUFFLE_ID = 0;

  private TaskScacheClient() {}

  public static ScacheClient open(JobConf job, JobID jobId, SecretKey shuffleSecret) throws IOException {
    ScacheConf conf = HadoopScacheConf.from(job);
    String service = conf.get(YarnOptions.AUX_SERVICE_NAME);
    String worker = NodeWorkerAddress.fromEnvironment(service, System.getenv()).orElseThrow(() -> new IOException(
        "no SCache worker on this NodeManager: the environment has no metadata of auxiliary service '" + service
            + "'; add it to yarn.nodemanager.aux-services (see docs/deploy-yarn.md)"));
    if (shuffleSecret == null) {
      throw new IOException("the task has no shuffle secret, so it cannot sign SCache requests");
    }
    // a task makes a few calls to its node's worker: no event loops to start
    return ScacheClient.create(conf.with(ScacheOptions.CLIENT_WORKER_ADDRESS, worker), applicationId(jobId),
        shuffleSecret.getEncoded(), ClientTransport.BLOCKING);
  }

  /** The YARN application of a MapReduce job, as the NodeManager names it to the auxiliary service. */
  static String applicationId(JobID jobId) {
    return ApplicationId.newInstance(Long.parseLong(jobId.getJtIdentifier()), jobId.getId()).toString();
  }
}
