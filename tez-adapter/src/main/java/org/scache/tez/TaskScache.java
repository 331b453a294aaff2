package org.scache.tez;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.hadoop.conf.Configuration;
import org.apache.tez.runtime.api.TaskContext;
import org.apache.tez.runtime.library.common.shuffle.ShuffleUtils;
import org.scache.client.ScacheClient;
import org.scache.common.config.ScacheConf;
import org.scache.common.config.ScacheOptions;
import org.scache.common.network.ClientTransport;
import org.scache.yarn.NodeWorkerAddress;

/**
 * Opens the ScacheClient of a Tez task: the YARN application as SCache application, the DAG's job
 * token (the secret Tez's own shuffle signs its fetches with) as its secret, and the worker of the
 * task's own NodeManager, found through the auxiliary service's metadata as in MapReduce.
 */
final class TaskScache {
  private TaskScache() {}

  /** The address of the SCache worker of this container's NodeManager. */
  static String localWorker(Configuration conf) throws IOException {
    String service = TezScacheSettings.auxServiceName(conf);
    return NodeWorkerAddress.fromEnvironment(service, System.getenv()).orElseThrow(() -> new IOException(
        "no SCache worker on this NodeManager: the environment has no metadata of auxiliary service '" + service
            + "'; add it to yarn.nodemanager.aux-services (see docs/deploy-tez.md)"));
  }

  static ScacheClient open(TaskContext context, Configuration conf) throws IOException {
    ScacheConf scache = TezScacheSettings.scacheConf(conf);
    String worker = localWorker(conf);
    // a task makes a few calls to its node's worker: no event loops to start
    return ScacheClient.create(scache.with(ScacheOptions.CLIENT_WORKER_ADDRESS, worker),
        context.getApplicationId().toString(), secret(context, conf), ClientTransport.BLOCKING);
  }

  /** The password of the DAG's job token, which TezChild hands every task as the shuffle service's consumer data. */
  static byte[] secret(TaskContext context, Configuration conf) throws IOException {
    String service = TezScacheSettings.tezShuffleServiceName(conf);
    ByteBuffer token = context.getServiceConsumerMetaData(service);
    if (token == null || !token.hasRemaining()) {
      throw new IOException("the task has no job token under service '" + service + "', so it cannot sign SCache "
          + "requests");
    }
    return ShuffleUtils.getJobTokenSecretFromTokenBytes(token.duplicate()).getEncoded();
  }

  /** The container this task runs in, as YARN names it in the environment. */
  static String containerId() {
    String id = System.getenv("CONTAINER_ID");
    return id == null ? "" : id;
  }
}
