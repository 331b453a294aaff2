package org.scache.benchmarks.spark;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.scache.spark.ScacheShuffleManager;

/**
 * What every benchmark application's driver shares: its {@code --name value} options, its Spark
 * configuration on either shuffle (SCache's as {@code docs/deploy-spark.md} has it), and the wait for
 * its executors, so that no run starts with fewer task slots than the other.
 */
final class BenchApplication {
  /** The options every application needs: the cluster's addresses and the executors' shape. */
  static final List<String> CLUSTER_OPTIONS = List.of("shuffle", "spark-master", "executors", "executor-cores",
      "executor-memory", "extra-class-path");

  private BenchApplication() {}

  /** {@code args} as {@code --name value} pairs; each of {@code required} must be there. */
  static Map<String, String> options(String[] args, List<String> required) {
    Map<String, String> o = new HashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      if (!args[i].startsWith("--")) {
        throw new IllegalArgumentException("expected --name value pairs, not " + List.of(args));
      }
      o.put(args[i].substring(2), args[i + 1]);
    }
    if (args.length % 2 != 0) {
      throw new IllegalArgumentException("no value for " + args[args.length - 1]);
    }
    require(o, required);
    return o;
  }

  /** Fails naming the first of {@code required} that {@code o} lacks. */
  static void require(Map<String, String> o, List<String> required) {
    for (String name : required) {
      if (!o.containsKey(name)) {
        throw new IllegalArgumentException("--" + name + " is required");
      }
    }
  }

  /**
   * The configuration of an application named {@code name} on the shuffle {@code --shuffle} names
   * ({@code sort} or {@code scache}), with Kryo as its serializer and one executor per node, and the
   * settings of {@code --spark-conf} if given ({@code spark.executor.extraJavaOptions} there adds to the JDK opens the
   * executors need, as one option without spaces, for example a flight recording).
   */
  static SparkConf conf(Map<String, String> o, String name) {
    int executors = Integer.parseInt(o.get("executors"));
    int cores = Integer.parseInt(o.get("executor-cores"));
    SparkConf conf = new SparkConf().setMaster(o.get("spark-master"))
        .setAppName(name)
        .set("spark.ui.enabled", "false")
        .set("spark.executor.cores", Integer.toString(cores))
        .set("spark.cores.max", Integer.toString(executors * cores))
        .set("spark.executor.memory", o.get("executor-memory"))
        .set("spark.executor.extraClassPath", o.get("extra-class-path"))
        .set("spark.executor.extraJavaOptions", String.join(" ", SparkJavaOptions.JAVA_OPENS))
        .set("spark.serializer", "org.apache.spark.serializer.KryoSerializer");
    switch (o.get("shuffle")) {
      case "sort" -> { }
      case "scache" -> conf.set("spark.shuffle.manager", ScacheShuffleManager.class.getName())
          .set("spark.plugins", "org.scache.spark.ScachePlacementPlugin")
          .set("spark.scache.client.master.address", o.get("scache-master"))
          .set("spark.scache.worker.rpc.port", o.get("scache-worker-port"));
      default -> throw new IllegalArgumentException("--shuffle is sort or scache, not " + o.get("shuffle"));
    }
    // further settings, key=value separated by spaces (spark.scache.* keys matter to SCache's side only)
    for (String setting : o.getOrDefault("spark-conf", "").trim().split("\\s+")) {
      if (!setting.isEmpty()) {
        int eq = setting.indexOf('=');
        if (eq <= 0) {
          throw new IllegalArgumentException("--spark-conf takes key=value settings, not " + setting);
        }
        String key = setting.substring(0, eq);
        String value = setting.substring(eq + 1);
        // the executors' own options come after the JDK opens Spark needs, which they keep
        conf.set(key, key.equals("spark.executor.extraJavaOptions") ? conf.get(key) + " " + value : value);
      }
    }
    return conf;
  }

  /** Waits until all {@code --executors} executors have registered (two minutes at most). */
  static void awaitExecutors(JavaSparkContext sc, Map<String, String> o) throws InterruptedException {
    int executors = Integer.parseInt(o.get("executors"));
    long deadline = System.nanoTime() + 120_000_000_000L;
    // the driver is listed among the executors
    while (sc.sc().statusTracker().getExecutorInfos().length < executors + 1) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("only " + (sc.sc().statusTracker().getExecutorInfos().length - 1) + " of "
            + executors + " executors registered within 120 s");
      }
      Thread.sleep(200);
    }
  }
}
