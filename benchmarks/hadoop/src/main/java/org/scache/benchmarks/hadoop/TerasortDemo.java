package org.scache.benchmarks.hadoop;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.scache.benchmarks.harness.ByteSize;
import org.scache.benchmarks.harness.MachineSpeed;
import org.scache.hadoop.frq.FrqFit;
import org.scache.hadoop.frq.Shuffle;

/**
 * The demo: a mini YARN cluster of three NodeManagers, each hosting an SCache worker, and an SCache
 * master, all in this JVM; TeraGen writes the input; TeraSort runs once on Hadoop's shuffle and once
 * through SCache; TeraValidate checks both outputs, which must also be equal byte for byte; then a
 * report of job, stage and shuffle-wait times, map-side disk writes and reduce placement, and a
 * timeline chart.
 */
public final class TerasortDemo {
  private static final String NAME = "terasort-demo";

  private TerasortDemo() {}

  public static void main(String[] args) {
    Options options = new Options("TeraSort on a mini YARN cluster, Hadoop's shuffle against SCache",
        new Options.Option("size", "256m", "input size (TeraGen rows of 100 bytes): 256m, 1g, ..."),
        new Options.Option("reduces", "", "reduces per job (default: 2 per NodeManager, more above 64 MiB each)"),
        new Options.Option("nodemanagers", "3", "NodeManagers, each with an SCache worker"),
        new Options.Option("slowstart", "", "reduce slow start of the SCache jobs (default: SCache's, "
            + "scache.hadoop.reduce.slowstart)"),
        new Options.Option("links", "", "instead, run on the namespaced cluster (root, ip, tc; docs/netns-cluster.md) "
            + "with node links of this many Mbit/s (40: the paper's network per core; none: unshaped)"));
    int exit;
    try {
      if (!options.parse(args)) {
        return;
      }
      long size = ByteSize.parse(options.get("size"));
      String links = options.get("links").trim();
      exit = links.isEmpty()
          ? run(size, options.get("reduces"), options.getInt("nodemanagers"), options.get("slowstart"))
          : NetnsBenchmark.run(options.getInt("nodemanagers"), List.of(NetnsBenchmark.parseLink(links)), List.of(size),
              1, options.get("slowstart"), 0, Map.of());
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      exit = 2;
    }
    System.exit(exit);
  }

  private static int run(long size, String reducesOption, int nodeManagers, String slowstart) {
    Path target = Path.of("target").toAbsolutePath();
    Path logFile = target.resolve(NAME + ".log");
    Path chart = target.resolve(NAME + "-timeline.png");
    long started = System.nanoTime();
    Console console;
    try {
      Files.deleteIfExists(logFile);
      console = Console.start(logFile);
    } catch (java.io.IOException e) {
      System.err.println("cannot write " + logFile + ": " + e);
      return 1;
    }
    console.print(String.format(Locale.ROOT, "SCache demo: TeraSort of %s on a mini YARN cluster, Hadoop's shuffle "
        + "against SCache%nThe cluster's and the jobs' log: %s%n%s%n", ByteSize.format(size), logFile,
        MachineSpeed.measure().describe()));
    try {
      console.phase("1/6 starting " + nodeManagers + " NodeManagers, each with an SCache worker, and the SCache "
          + "master");
      long t = System.nanoTime();
      try (TerasortCluster cluster = TerasortCluster.start(NAME, nodeManagers, Math.max(512 * ByteSize.MIB, size))) {
        console.detail(String.format(Locale.ROOT, "ready in %.1f s; SCache workers %s", Console.secondsSince(t),
            cluster.workers()));
        int reduces = reducesOption.isBlank() ? cluster.reducesFor(size) : Integer.parseInt(reducesOption.trim());
        TerasortRunner runner = new TerasortRunner(cluster, console, slowstart);
        Path input = cluster.dir().resolve("input");

        console.phase(String.format(Locale.ROOT, "2/6 TeraGen: %s, %,d rows", ByteSize.format(size),
            size / TerasortRunner.ROW_BYTES));
        runner.generate(size, input);

        console.phase(String.format(Locale.ROOT, "3/6 TeraSort on Hadoop's shuffle: maps of %s, %d reduces",
            ByteSize.format(TerasortCluster.SPLIT_BYTES), reduces));
        Path hadoopOut = cluster.dir().resolve("sorted-hadoop");
        TerasortRunner.SortRun hadoop = runner.sort(input, hadoopOut, Shuffle.HADOOP, reduces);

        console.phase(String.format(Locale.ROOT, "4/6 TeraSort through SCache: maps of %s, %d reduces",
            ByteSize.format(TerasortCluster.SPLIT_BYTES), reduces));
        Path scacheOut = cluster.dir().resolve("sorted-scache");
        TerasortRunner.SortRun scache = runner.sort(input, scacheOut, Shuffle.SCACHE, reduces);

        console.phase("5/6 checking both outputs: TeraValidate, and byte for byte against each other");
        String hadoopSum = runner.validate(hadoopOut, cluster.dir().resolve("validate-hadoop"), "Hadoop's output");
        String scacheSum = runner.validate(scacheOut, cluster.dir().resolve("validate-scache"), "SCache's output");
        SameOutput.Compared same = SameOutput.check(hadoopOut, scacheOut);
        console.detail(String.format(Locale.ROOT, "both sorted (TeraValidate checksums %s and %s); identical: %d files,"
            + " %s", hadoopSum, scacheSum, same.files(), ByteSize.format(same.bytes())));

        console.phase("6/6 report");
        String chartNote = writeChart(chart, size, hadoop.job(), scache.job(), nodeManagers);
        console.print(String.format(Locale.ROOT, "%nTeraSort of %s, %d maps, %d reduces, %d NodeManagers (%d cores):%n",
            ByteSize.format(size), hadoop.job().maps(), reduces, nodeManagers,
            Runtime.getRuntime().availableProcessors()));
        console.print(PairReport.format(hadoop, scache));
        FrqFit hadoopFrq = FrqReport.fit(FrqRuns.of(hadoop.job(), size), Double.POSITIVE_INFINITY);
        FrqFit scacheFrq = FrqReport.fit(FrqRuns.of(scache.job(), size), Double.POSITIVE_INFINITY);
        console.print(FrqReport.format(hadoopFrq, scacheFrq) + FrqReport.NO_LINK_LIMIT
            + FrqReport.launchTerm(hadoopFrq, hadoop.job(), scacheFrq, scache.job()));
        console.print(String.format(Locale.ROOT, "outputs: identical, %d files, %s, sorted (TeraValidate)%n%s%n",
            same.files(), ByteSize.format(same.bytes()), chartNote));
        console.phase("stopping the cluster");
      }
      console.phase(String.format(Locale.ROOT, "demo done in %.0f s", Console.secondsSince(started)));
      return 0;
    } catch (Throwable e) {
      console.print("\nDEMO FAILED: " + e);
      e.printStackTrace(); // into the log
      console.print("details: " + logFile);
      return 1;
    }
  }

  /** Writes the timeline chart; a machine without fonts gets a note instead. */
  static String writeChart(Path chart, long size, JobFigures hadoop, JobFigures scache, int nodeManagers) {
    try {
      TimelineChart.write(chart, String.format(Locale.ROOT, "TeraSort of %s on %d NodeManagers: Hadoop's shuffle "
          + "(top) and SCache (bottom)", ByteSize.format(size), nodeManagers), List.of(hadoop, scache));
      return "timeline chart: " + chart;
    } catch (Throwable e) {
      return "timeline chart not written (" + e + ")";
    }
  }
}
