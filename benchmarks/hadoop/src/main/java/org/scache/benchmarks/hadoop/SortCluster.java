package org.scache.benchmarks.hadoop;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.mapred.JobConf;

/** A YARN cluster with SCache that TeraSort runs on: the embedded mini cluster, or one started as separate daemons. */
interface SortCluster extends AutoCloseable {
  /** The NodeManagers, each with an SCache worker. */
  int nodeManagers();

  /** A job configuration for this cluster (Hadoop's shuffle; {@code ScacheJob.enable} switches it). */
  JobConf jobConf();

  /** The default number of reduces for {@code bytes} of input: a multiple of the NodeManagers, 2 each at least. */
  default int reducesFor(long bytes) {
    long byInput = (bytes + TerasortCluster.REDUCE_INPUT_BYTES - 1) / TerasortCluster.REDUCE_INPUT_BYTES;
    long n = Math.max(2L * nodeManagers(), byInput);
    return (int) ((n + nodeManagers() - 1) / nodeManagers() * nodeManagers());
  }

  /** The directory of the jobs' inputs and outputs, on the file system every node shares. */
  Path dir();

  /** The root of the NodeManagers' container log directories (the task logs), or null when they are not kept. */
  Path containerLogs();

  /** The SCache workers' addresses. */
  List<String> workers();

  /** The counters of all SCache workers, summed. */
  Map<String, Long> workerStats();

  @Override
  void close();
}
