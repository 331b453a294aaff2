package org.scache.spark;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.SparkConf;
import org.apache.spark.deploy.master.Master$;
import org.apache.spark.deploy.worker.Worker$;
import org.apache.spark.rpc.RpcEnv;
import scala.Option;
import scala.Tuple3;

/**
 * A Spark standalone master and one worker per host, in this JVM, as Spark's own local cluster starts
 * them but with each worker on an address of its own (127.0.0.2, 127.0.0.3, ...), so that its
 * executors run under that host name and tasks can be placed on hosts.
 */
final class StandaloneSparkCluster implements AutoCloseable {
  private final RpcEnv master;
  private final List<RpcEnv> workers = new ArrayList<>();
  private final String url;

  StandaloneSparkCluster(List<String> hosts, int coresPerWorker, int memoryMbPerWorker) throws Exception {
    SparkConfs.base("local", "unused");  // sets what Spark's workers need to start executors under test
    SparkConf conf = new SparkConf().set("spark.master.rest.enabled", "false").set("spark.shuffle.service.enabled",
        "false");
    Tuple3<RpcEnv, Object, Option<Object>> m = Master$.MODULE$.startRpcEnvAndEndpoint("127.0.0.1", 0, 0, conf);
    master = m._1();
    url = "spark://127.0.0.1:" + master.address().port();
    for (int i = 0; i < hosts.size(); i++) {
      String workDir = Files.createTempDirectory("spark-worker-" + i).toString();
      workers.add(Worker$.MODULE$.startRpcEnvAndEndpoint(hosts.get(i), 0, 0, coresPerWorker, memoryMbPerWorker,
          new String[] {url}, workDir, Option.apply(i + 1), conf, Option.empty()));
    }
  }

  String masterUrl() {
    return url;
  }

  @Override
  public void close() {
    workers.forEach(RpcEnv::shutdown);
    workers.forEach(RpcEnv::awaitTermination);
    master.shutdown();
    master.awaitTermination();
  }
}
