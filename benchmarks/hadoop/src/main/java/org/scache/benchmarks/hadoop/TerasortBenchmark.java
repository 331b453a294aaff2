package org.scache.benchmarks.hadoop;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.scache.benchmarks.harness.ByteSize;
import org.scache.hadoop.MiniScacheYarnCluster;
import org.scache.hadoop.frq.Shuffle;

/**
 * The benchmark: TeraSort at several sizes on one mini YARN cluster (the demo's), each size repeated,
 * Hadoop's shuffle and SCache taking turns to run first; prints the medians of the SCache/Hadoop ratios
 * next to the targets, and writes every run as CSV, the summary, and a timeline chart per size (its
 * last repetition) into {@code target/terasort-benchmark/}. With {@code --cluster} it runs on a cluster
 * of separate daemons instead ({@link ConfiguredCluster}; the namespaced cluster's benchmark runs it so).
 */
public final class TerasortBenchmark {
  private static final String NAME = "terasort-benchmark";

  private TerasortBenchmark() {}

  public static void main(String[] args) {
    Options options = new Options("TeraSort at several sizes, Hadoop's shuffle against SCache, repeated",
        new Options.Option("sizes", "256m,512m,1g", "input sizes, comma-separated"),
        new Options.Option("repetitions", "3", "runs of each shuffle per size"),
        new Options.Option("warmup", "", "before the measured runs, sort this much once on each shuffle, unmeasured, "
            + "so that no measured run is the first to load and compile a daemon's code (default: none)"),
        new Options.Option("reduces", "", "reduces per job (default: 2 per NodeManager, more above 64 MiB each)"),
        new Options.Option("nodemanagers", "3", "NodeManagers, each with an SCache worker"),
        new Options.Option("slowstart", "", "reduce slow start of the SCache jobs (default: SCache's, "
            + "scache.hadoop.reduce.slowstart)"),
        new Options.Option("remote-rate", "", "scache.hadoop.placement.remote.read.rate of the SCache jobs "
            + "(default: SCache's)"),
        new Options.Option("hadoop-conf", "", "job settings for the jobs on Hadoop's shuffle only, key=value, "
            + "comma-separated (for example mapreduce.reduce.input.buffer.percent=0.5, what SCache's reduces keep in "
            + "memory)"),
        new Options.Option("cluster", "", "the directory of a running cluster of separate daemons to sort on "
            + "(its cluster.properties and conf/); default: start a mini cluster in this JVM"),
        new Options.Option("results", "", "where the results go (default: target/" + NAME + ")"));
    int exit;
    try {
      if (!options.parse(args)) {
        return;
      }
      List<Long> sizes = ByteSize.parseList(options.get("sizes"));
      int repetitions = options.getInt("repetitions");
      if (repetitions < 1) {
        throw new IllegalArgumentException("--repetitions must be at least 1");
      }
      long warmup = options.get("warmup").isBlank() ? 0 : ByteSize.parse(options.get("warmup"));
      exit = run(sizes, repetitions, warmup, options.get("reduces"), options.getInt("nodemanagers"),
          options.get("slowstart"),
          options.get("remote-rate"), settings(options.get("hadoop-conf")), options.get("cluster"),
          options.get("results"));
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      exit = 2;
    }
    System.exit(exit);
  }

  /** key=value pairs, comma-separated; blank for none. */
  static Map<String, String> settings(String list) {
    Map<String, String> settings = new LinkedHashMap<>();
    for (String pair : list.split(",")) {
      if (pair.isBlank()) {
        continue;
      }
      int eq = pair.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("not a key=value pair of a comma-separated list: " + pair);
      }
      settings.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
    }
    return settings;
  }

  /**
   * Sorts {@code size} once on each shuffle and forgets the runs: the daemons (NodeManagers, shuffle
   * handlers, SCache's workers and master) have loaded and compiled their code before the first measured
   * run, as on a cluster that has run jobs before.
   */
  private static void warmUp(SortCluster cluster, TerasortRunner runner, Console console, long size) throws Exception {
    console.phase(String.format(Locale.ROOT, "warm-up, not measured: TeraSort of %s on each shuffle",
        ByteSize.format(size)));
    Path input = cluster.dir().resolve("input-warmup");
    runner.generate(size, input);
    int reduces = cluster.reducesFor(size);
    for (Shuffle shuffle : Shuffle.values()) {
      Path out = cluster.dir().resolve("sorted-warmup");
      TerasortRunner.SortRun run = runner.sort(input, out, shuffle, reduces);
      console.detail(String.format(Locale.ROOT, "%s: %.1f s", shuffle.label(), run.job().jobSeconds()));
      MiniScacheYarnCluster.deleteRecursively(out);
    }
    MiniScacheYarnCluster.deleteRecursively(input);
  }

  private static int run(List<Long> sizes, int repetitions, long warmup, String reducesOption, int nodeManagersOption,
      String slowstart, String remoteRate, Map<String, String> hadoopConf, String clusterDir, String resultsDir) {
    Path target = Path.of("target").toAbsolutePath();
    Path results = resultsDir.isBlank() ? target.resolve(NAME) : Path.of(resultsDir).toAbsolutePath();
    Path logFile = resultsDir.isBlank() ? target.resolve(NAME + ".log") : results.resolve(NAME + ".log");
    long started = System.nanoTime();
    Console console;
    try {
      MiniScacheYarnCluster.deleteRecursively(results);
      Files.createDirectories(results);
      Files.deleteIfExists(logFile);
      console = Console.start(logFile);
    } catch (java.io.IOException e) {
      System.err.println("cannot write into " + target + ": " + e);
      return 1;
    }
    console.print(String.format(Locale.ROOT, "SCache benchmark: TeraSort of %s, %d repetitions each, Hadoop's shuffle "
        + "and SCache taking turns%nThe cluster's and the jobs' log: %s%nResults: %s%n", sizes.stream()
        .map(ByteSize::format).toList(), repetitions, logFile, results));
    long largest = sizes.stream().mapToLong(Long::longValue).max().orElseThrow();
    List<RunPair> pairs = new ArrayList<>();
    int nodeManagers = nodeManagersOption;
    try {
      long t = System.nanoTime();
      if (clusterDir.isBlank()) {
        console.phase("starting " + nodeManagersOption
            + " NodeManagers, each with an SCache worker, and the SCache master");
      } else {
        console.phase("connecting to the cluster of " + clusterDir);
      }
      try (SortCluster cluster = clusterDir.isBlank()
          ? TerasortCluster.start(NAME, nodeManagersOption, Math.max(512 * ByteSize.MIB, largest))
          : ConfiguredCluster.open(Path.of(clusterDir))) {
        nodeManagers = cluster.nodeManagers();
        console.detail(String.format(Locale.ROOT, "ready in %.1f s; SCache workers %s", Console.secondsSince(t),
            cluster.workers()));
        TerasortRunner runner = new TerasortRunner(cluster, console, slowstart).withRemoteReadRate(remoteRate)
            .withHadoopJobConf(hadoopConf);
        if (warmup > 0) {
          warmUp(cluster, runner, console, warmup);
        }
        for (long size : sizes) {
          int reduces = reducesOption.isBlank() ? cluster.reducesFor(size) : Integer.parseInt(reducesOption.trim());
          Path input = cluster.dir().resolve("input-" + ByteSize.tag(size));
          console.phase(String.format(Locale.ROOT, "%s: TeraGen, %,d rows", ByteSize.format(size),
              size / TerasortRunner.ROW_BYTES));
          runner.generate(size, input);
          RunPair last = null;
          for (int rep = 1; rep <= repetitions; rep++) {
            boolean hadoopFirst = rep % 2 == 1;
            console.phase(String.format(Locale.ROOT, "%s: repetition %d of %d, %d reduces, %s first",
                ByteSize.format(size), rep, repetitions, reduces, hadoopFirst ? "Hadoop's shuffle" : "SCache"));
            Path hadoopOut = cluster.dir().resolve("sorted-hadoop");
            Path scacheOut = cluster.dir().resolve("sorted-scache");
            TerasortRunner.SortRun hadoop;
            TerasortRunner.SortRun scache;
            if (hadoopFirst) {
              hadoop = runner.sort(input, hadoopOut, Shuffle.HADOOP, reduces);
              scache = runner.sort(input, scacheOut, Shuffle.SCACHE, reduces);
            } else {
              scache = runner.sort(input, scacheOut, Shuffle.SCACHE, reduces);
              hadoop = runner.sort(input, hadoopOut, Shuffle.HADOOP, reduces);
            }
            if (rep == 1) {
              runner.validate(hadoopOut, cluster.dir().resolve("validate"), "Hadoop's output");
            }
            SameOutput.Compared same = SameOutput.check(hadoopOut, scacheOut);
            last = new RunPair(size, rep, hadoopFirst, hadoop, scache);
            pairs.add(last);
            console.detail(String.format(Locale.ROOT, "outputs identical (%d files, %s)%s", same.files(),
                ByteSize.format(same.bytes()), rep == 1 ? ", sorted (TeraValidate)" : ""));
            console.detail(BenchmarkSummary.line(last));
            MiniScacheYarnCluster.deleteRecursively(hadoopOut);
            MiniScacheYarnCluster.deleteRecursively(scacheOut);
          }
          MiniScacheYarnCluster.deleteRecursively(input);
          Path chart = results.resolve("timeline-" + ByteSize.tag(size) + ".png");
          console.detail(TerasortDemo.writeChart(chart, size, last.hadoop().job(), last.scache().job(), nodeManagers)
              + " (repetition " + last.repetition() + ")");
          Files.writeString(results.resolve("runs.csv"), BenchmarkSummary.csv(pairs), StandardCharsets.UTF_8);
        }
        console.phase("stopping the cluster");
      }
      String summary = String.format(Locale.ROOT,
          "TeraSort, %d NodeManagers on %d cores, SCache reduce slow start %s,%s medians of %d repetitions:%n%s",
          nodeManagers, Runtime.getRuntime().availableProcessors(), slowstart.isBlank() ? "default" : slowstart.trim(),
          hadoopConf.isEmpty() ? "" : " Hadoop's jobs with " + hadoopConf + ",", repetitions,
          BenchmarkSummary.format(pairs));
      console.finish(results, summary, started);
      return 0;
    } catch (Throwable e) {
      console.failed(e);
      if (!pairs.isEmpty()) {
        console.print("completed so far:\n" + BenchmarkSummary.format(pairs));
      }
      return 1;
    }
  }
}
