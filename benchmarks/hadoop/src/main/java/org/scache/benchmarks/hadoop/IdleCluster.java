package org.scache.benchmarks.hadoop;

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.NodeReport;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.client.api.YarnClient;

/**
 * Waits, before a measured job is submitted, until no earlier application is alive and no container runs
 * on the cluster. A MapReduce application master unregisters when its job is done (the application is
 * then finished for the ResourceManager) but its JVM stays up about five more seconds, so that clients can
 * read the final state, and its container is held meanwhile; the cluster runs one application master at a
 * time, so a job submitted within those seconds waits for it before its own starts. Without this wait the
 * job submitted soon after another paid up to five seconds, whichever shuffle it ran on.
 */
final class IdleCluster {
  private static final EnumSet<YarnApplicationState> ALIVE = EnumSet.of(YarnApplicationState.NEW,
      YarnApplicationState.NEW_SAVING, YarnApplicationState.SUBMITTED, YarnApplicationState.ACCEPTED,
      YarnApplicationState.RUNNING);

  private IdleCluster() {}

  /**
   * Returns once the ResourceManager that {@code conf} names lists no live application and no running container
   * on any node, or after {@code limit}; returns how long it waited.
   */
  static Duration await(Configuration conf, Duration limit) throws Exception {
    long start = System.nanoTime();
    long deadline = start + limit.toNanos();
    try (YarnClient yarn = YarnClient.createYarnClient()) {
      yarn.init(conf);
      yarn.start();
      while (true) {
        List<ApplicationReport> alive = yarn.getApplications(ALIVE);
        int containers = yarn.getNodeReports(NodeState.RUNNING).stream().mapToInt(NodeReport::getNumContainers).sum();
        if ((alive.isEmpty() && containers == 0) || System.nanoTime() >= deadline) {
          return Duration.ofNanos(System.nanoTime() - start);
        }
        Thread.sleep(100);
      }
    }
  }
}
