package org.scache.benchmarks.hadoop;

import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.scache.benchmarks.hadoop.netns.ClassPaths;
import org.scache.benchmarks.hadoop.netns.NetnsCluster;
import org.scache.benchmarks.harness.ByteSize;

/**
 * Starts the namespaced cluster ({@link NetnsCluster}) and keeps it up until Ctrl-C or the time limit,
 * then removes it (daemons, namespaces, links, configuration).
 */
public final class NetnsClusterMain {
  private NetnsClusterMain() {}

  public static void main(String[] args) throws Exception {
    Options options = new Options("A Hadoop cluster of separate daemons, one network namespace per node, with SCache "
        + "(root)",
        new Options.Option("nodes", "3", "NodeManager hosts"),
        new Options.Option("link", "none", "node link rate in Mbit/s; none: unshaped"),
        new Options.Option("masters", "1", "SCache masters on the control host; 2 or 3 elect a leader through a "
            + "ZooKeeper server started there too"),
        new Options.Option("minutes", "60", "how long the cluster stays up at most"));
    try {
      if (!options.parse(args)) {
        return;
      }
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.exit(2);
    }
    Path module = Path.of("").toAbsolutePath();
    int mbit = options.get("link").equals("none") ? 0 : Integer.parseInt(options.get("link").trim());
    long t = System.nanoTime();
    System.out.printf(Locale.ROOT, "starting %s NodeManager hosts ...%n", options.get("nodes"));
    NetnsCluster cluster = NetnsCluster.start(module.resolve("target").resolve("netns-cluster"),
        options.getInt("nodes"), 512 * ByteSize.MIB, ClassPaths.of(module), options.getInt("masters"));
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      cluster.close();
      stopped.countDown();
    }, "stop-cluster"));
    cluster.shapeNodeLinks(mbit);
    Path run = cluster.runDir();
    System.out.printf(Locale.ROOT, "cluster up in %.1f s: control host ctl (ResourceManager, history server, SCache "
        + "master%s), nodes %s, links %s%n"
        + "daemon logs: %s%n"
        + "submit jobs from the control host, for example:%n"
        + "  ip netns exec scache-ctl env HADOOP_CONF_DIR=%s java -cp %s:<Hadoop and job jars> <job>%n"
        + "Ctrl-C stops it (at the latest in %s minutes)%n",
        Console.secondsSince(t), cluster.masterCount() > 1 ? "s on ports 17010, 17012" + (cluster.masterCount() > 2
            ? ", 17014" : "") + " and ZooKeeper on 2181" : "", cluster.nodeNames(), NetnsBenchmark.linkName(mbit),
            run.resolve("logs"),
        run.resolve("conf"), run.resolve("conf"), options.get("minutes"));
    if (!stopped.await(options.getInt("minutes"), TimeUnit.MINUTES)) {
      System.out.println("time is up; stopping the cluster");
      System.exit(0);
    }
  }
}
