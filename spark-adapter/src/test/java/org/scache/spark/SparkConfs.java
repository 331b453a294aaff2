package org.scache.spark;

import org.apache.spark.SparkConf;

/** The Spark configurations the tests run with: Spark's sort shuffle, and SCache's shuffle manager and plugin. */
final class SparkConfs {
  /** What Spark needs on JDK 17 (the list spark-submit adds), for the executors the tests start. */
  static final String JAVA17_OPENS = "-XX:+IgnoreUnrecognizedVMOptions --add-opens=java.base/java.lang=ALL-UNNAMED "
      + "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED --add-opens=java.base/java.lang.reflect=ALL-UNNAMED "
      + "--add-opens=java.base/java.io=ALL-UNNAMED --add-opens=java.base/java.net=ALL-UNNAMED "
      + "--add-opens=java.base/java.nio=ALL-UNNAMED --add-opens=java.base/java.util=ALL-UNNAMED "
      + "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED "
      + "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED "
      + "--add-opens=java.base/jdk.internal.ref=ALL-UNNAMED --add-opens=java.base/sun.nio.ch=ALL-UNNAMED "
      + "--add-opens=java.base/sun.nio.cs=ALL-UNNAMED --add-opens=java.base/sun.security.action=ALL-UNNAMED "
      + "--add-opens=java.base/sun.util.calendar=ALL-UNNAMED -Djdk.reflect.useDirectMethodHandle=false";

  private SparkConfs() {}

  /** A configuration without a shuffle manager of its own (Spark's sort shuffle). */
  static SparkConf base(String master, String appName) {
    // executors of a local cluster get the test's class path when Spark runs as under test
    System.setProperty("spark.testing", "true");
    // where a local cluster's workers would look for a Spark distribution (they use the test's class path)
    System.setProperty("spark.test.home", System.getProperty("java.io.tmpdir"));
    return new SparkConf().setMaster(master).setAppName(appName)
        .set("spark.ui.enabled", "false")
        .set("spark.executor.extraJavaOptions", JAVA17_OPENS)
        .set("spark.executor.memory", "512m")
        .set("spark.sql.shuffle.partitions", "8")
        .set("spark.default.parallelism", "4");
  }

  /** {@code base} shuffling through the SCache master at {@code masterAddress}, with the placing plugin. */
  static SparkConf scache(SparkConf base, String masterAddress) {
    return base.set("spark.shuffle.manager", ScacheShuffleManager.class.getName())
        .set("spark.plugins", ScachePlacementPlugin.class.getName())
        .set("spark.scache.client.master.address", masterAddress);
  }
}
