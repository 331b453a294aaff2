package org.scache.benchmarks.tez;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.tez.common.counters.TaskCounter;
import org.apache.tez.common.counters.TezCounters;
import org.apache.tez.dag.api.TezConfiguration;
import org.apache.tez.dag.api.client.DAGStatus;
import org.scache.benchmarks.hadoop.ConfiguredCluster;
import org.scache.benchmarks.hadoop.Console;
import org.scache.benchmarks.hadoop.Options;
import org.scache.benchmarks.harness.ByteSize;
import org.scache.benchmarks.harness.Stats;
import org.scache.benchmarks.harness.netns.Directories;
import org.scache.tez.ScacheDagScheduler;
import org.scache.tez.ScacheTezCounter;
import org.scache.tez.TezScacheOptions;

/**
 * The job client of {@link TezNetnsBenchmark}, run on the cluster's control host: a stock tez-examples program
 * ({@link TezPrograms}), unchanged, on Tez's own shuffle and with SCache's configuration switch
 * (docs/deploy-tez.md), the two alternated. Each run is a session of its own whose DAG is timed from its
 * submission to its end; every output is compared, as a multiset of lines, with the first run's. Writes
 * {@code runs.csv} and {@code summary.txt} into the results directory.
 */
public final class TezBenchClient {
  /** Which shuffle a run used. */
  enum Shuffle { TEZ, SCACHE }

  /** One measured DAG. */
  record Run(int repetition, Shuffle shuffle, long startMs, long endMs, double appSeconds, double dagSeconds,
      TezCounters counters) {
    long counter(Enum<?> c) {
      return counters.findCounter(c).getValue();
    }

    String csv() {
      return String.format(Locale.ROOT, "%d,%s,%d,%d,%.2f,%.2f,%d,%d,%d,%d,%d,%d%n", repetition, shuffle, startMs,
          endMs, appSeconds, dagSeconds, counter(TaskCounter.SHUFFLE_BYTES), counter(ScacheTezCounter.BYTES_PUT),
          counter(ScacheTezCounter.BYTES_READ), counter(ScacheTezCounter.CONSUMERS_ON_SCHEDULED_WORKER),
          counter(ScacheTezCounter.CONSUMERS_OFF_SCHEDULED_WORKER),
          counter(ScacheTezCounter.CONSUMERS_WITHOUT_SCHEDULE));
    }
  }

  static final String CSV_HEADER = "repetition,shuffle,start_ms,end_ms,app_s,dag_s,tez_shuffle_bytes,"
      + "scache_bytes_put,scache_bytes_read,consumers_on_scheduled_worker,consumers_off_scheduled_worker,"
      + "consumers_without_schedule\n";

  private final ConfiguredCluster cluster;
  private final Path results;
  private final Path tezAdapterJar;
  private final Console console;
  private final TezPrograms program;
  private final int maps;
  private final int reduces;
  private List<String> reference;

  private TezBenchClient(ConfiguredCluster cluster, Path results, Path tezAdapterJar, Console console,
      TezPrograms program, int maps, int reduces) {
    this.cluster = cluster;
    this.results = results;
    this.tezAdapterJar = tezAdapterJar;
    this.console = console;
    this.program = program;
    this.maps = maps;
    this.reduces = reduces;
  }

  public static void main(String[] args) {
    Options options = new Options("a stock tez-examples program on a running cluster, Tez's shuffle against SCache",
        new Options.Option("cluster", "", "the cluster's run directory (cluster.properties, conf/)"),
        new Options.Option("results", "", "where runs.csv and summary.txt go"),
        new Options.Option("tez-adapter", "", "the Tez adapter jar the DAGs name in tez.aux.uris"),
        new Options.Option("program", "owc", "owc (OrderedWordCount) or join (SortMergeJoinExample)"),
        new Options.Option("size", "256m", "bytes of input per measured run"),
        new Options.Option("maps", "12", "input tasks (one input file each)"),
        new Options.Option("reduces", "6", "tasks of the first shuffle's consumer (the program's partitions)"),
        new Options.Option("repetitions", "3", "measured runs of each shuffle, alternated"),
        new Options.Option("warmup", "32m", "bytes of input run once on each shuffle first, unmeasured (0: none)"));
    int exit;
    try {
      if (!options.parse(args)) {
        return;
      }
      Path results = Path.of(options.get("results")).toAbsolutePath();
      Files.createDirectories(results);
      Console console = Console.start(results.resolve("client.log"));
      TezBenchClient client = new TezBenchClient(ConfiguredCluster.open(Path.of(options.get("cluster"))), results,
          Path.of(options.get("tez-adapter")).toAbsolutePath(), console, TezPrograms.of(options.get("program")),
          options.getInt("maps"), options.getInt("reduces"));
      String warmup = options.get("warmup").trim();
      exit = client.run(ByteSize.parse(options.get("size")), options.getInt("repetitions"),
          warmup.equals("0") ? 0 : ByteSize.parse(warmup));
    } catch (IllegalArgumentException | IOException e) {
      System.err.println(e.getMessage());
      exit = 2;
    }
    System.exit(exit);
  }

  private int run(long size, int repetitions, long warmup) {
    try {
      if (warmup > 0) {
        Path in = program.input(cluster.dir(), warmup, maps);
        reference = null;
        for (Shuffle s : Shuffle.values()) {
          Run r = runOnce(in, -1, s);
          console.phase(String.format(Locale.ROOT, "warm-up on %s: DAG %.1f s", s, r.dagSeconds()));
        }
      }
      Path words = program.input(cluster.dir(), size, maps);
      console.phase(String.format(Locale.ROOT, "%s of %s's input in %d files: %s", ByteSize.format(size),
          program.stockName(), maps, words));
      reference = null;
      List<Run> runs = new ArrayList<>();
      StringBuilder csv = new StringBuilder(CSV_HEADER);
      for (int rep = 0; rep < repetitions; rep++) {
        // alternated: Tez first in even repetitions, SCache first in odd ones
        List<Shuffle> order = rep % 2 == 0 ? List.of(Shuffle.TEZ, Shuffle.SCACHE) : List.of(Shuffle.SCACHE,
            Shuffle.TEZ);
        for (Shuffle s : order) {
          Run r = runOnce(words, rep, s);
          runs.add(r);
          csv.append(r.csv());
          Files.writeString(results.resolve("runs.csv"), csv, StandardCharsets.UTF_8);
          console.phase(String.format(Locale.ROOT, "repetition %d on %s: DAG %.1f s, application %.1f s", rep + 1, s,
              r.dagSeconds(), r.appSeconds()));
        }
      }
      String summary = summary(size, runs);
      Files.writeString(results.resolve("summary.txt"), summary, StandardCharsets.UTF_8);
      console.print(summary);
      return 0;
    } catch (Exception e) {
      console.failed(e);
      return 1;
    }
  }

  /** Runs the program over {@code input} on {@code shuffle} in a session of its own. */
  private Run runOnce(Path input, int repetition, Shuffle shuffle) throws Exception {
    Path out = cluster.dir().resolve("tez-out-" + shuffle.name().toLowerCase(Locale.ROOT) + "-" + repetition);
    Directories.deleteRecursively(out);
    TezConfiguration conf = conf(shuffle == Shuffle.SCACHE);
    String name = program.name().toLowerCase(Locale.ROOT) + "-" + shuffle.name().toLowerCase(Locale.ROOT) + "-"
        + (repetition + 1);
    long appStart = System.nanoTime();
    ObservedTezClient client = new ObservedTezClient(name, conf);
    client.start();
    DAGStatus status;
    long start;
    long end;
    double dagSeconds;
    try {
      client.waitTillReady();
      start = System.currentTimeMillis();
      long dagStart = System.nanoTime();
      status = program.run(client, conf, input, out, reduces, name);
      dagSeconds = Console.secondsSince(dagStart);
      end = System.currentTimeMillis();
    } finally {
      client.stop();
    }
    double appSeconds = Console.secondsSince(appStart);
    if (status.getState() != DAGStatus.State.SUCCEEDED) {
      throw new IllegalStateException(name + " ended " + status.getState() + ": " + status.getDiagnostics());
    }
    Run run = new Run(repetition, shuffle, start, end, appSeconds, dagSeconds, status.getDAGCounters());
    checkOutput(name, out);
    checkShuffle(name, run);
    Directories.deleteRecursively(out);
    return run;
  }

  /** The same lines as the first run's over this input, in any order. */
  private void checkOutput(String name, Path out) throws IOException {
    List<String> lines = WordInput.sortedLines(out);
    if (lines.isEmpty()) {
      throw new IllegalStateException(name + " wrote nothing into " + out);
    }
    if (reference == null) {
      reference = lines;
    } else if (!reference.equals(lines)) {
      throw new IllegalStateException(name + "'s output differs from the first run's: " + lines.size() + " lines "
          + "against " + reference.size());
    }
  }

  /** A run through SCache moved every shuffled byte through it; a run on Tez moved none. */
  private static void checkShuffle(String name, Run run) {
    long read = run.counter(ScacheTezCounter.BYTES_READ);
    // SCache's inputs count what they read as Tez's inputs do (SHUFFLE_BYTES), and BYTES_READ besides
    if (run.shuffle() == Shuffle.SCACHE && (read == 0 || run.counter(TaskCounter.SHUFFLE_BYTES) != read)) {
      throw new IllegalStateException(name + " did not shuffle everything through SCache: SCache read " + read
          + " bytes of " + run.counter(TaskCounter.SHUFFLE_BYTES));
    }
    if (run.shuffle() == Shuffle.TEZ && read != 0) {
      throw new IllegalStateException(name + " went through SCache without the switch");
    }
  }

  /**
   * What the DAG client's tez-site.xml says on this cluster, and with {@code switched} the two keys of
   * docs/deploy-tez.md. Tez runs from the cluster's class path (as an installation with its jars in
   * {@code yarn.application.classpath}); the Tez adapter is localized through {@code tez.aux.uris}.
   */
  private TezConfiguration conf(boolean switched) {
    TezConfiguration conf = new TezConfiguration(new YarnConfiguration());
    conf.set(TezConfiguration.TEZ_AM_STAGING_DIR, cluster.dir().resolve("tez-staging").toString());
    conf.setBoolean(TezConfiguration.TEZ_IGNORE_LIB_URIS, true);
    conf.setBoolean(TezConfiguration.TEZ_USE_CLUSTER_HADOOP_LIBS, true);
    conf.set(TezConfiguration.TEZ_AUX_URIS, tezAdapterJar.toUri().toString());
    conf.setInt(TezConfiguration.TEZ_AM_RESOURCE_MEMORY_MB, 512);
    conf.setInt(TezConfiguration.TEZ_TASK_RESOURCE_MEMORY_MB, 512);
    // Tez 0.10.5's requirement on Java 17 (docs/deploy-tez.md), the same on both shuffles
    String opens = " --add-opens=java.base/java.lang=ALL-UNNAMED";
    conf.set(TezConfiguration.TEZ_AM_LAUNCH_CMD_OPTS, conf.get(TezConfiguration.TEZ_AM_LAUNCH_CMD_OPTS, "") + opens);
    conf.set(TezConfiguration.TEZ_TASK_LAUNCH_CMD_OPTS, conf.get(TezConfiguration.TEZ_TASK_LAUNCH_CMD_OPTS, "")
        + opens);
    // as docs/deploy-tez.md advises for SCache; on both shuffles, so that they differ in the switch alone
    conf.setBoolean(TezConfiguration.TEZ_AM_CONTAINER_REUSE_RACK_FALLBACK_ENABLED, false);
    // one tokenizer per input file
    conf.setLong("mapreduce.input.fileinputformat.split.minsize", Long.MAX_VALUE);
    // where the SCache master is, and the cluster's secret: on both shuffles
    cluster.scacheConf(null).asMap().forEach(conf::set);
    if (switched) {
      conf.set(TezConfiguration.TEZ_AM_DAG_SCHEDULER_CLASS, ScacheDagScheduler.class.getName());
      conf.setBoolean(TezScacheOptions.ENABLED.key(), true);
    }
    return conf;
  }

  private String summary(long size, List<Run> runs) {
    StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%s of %s (%s), %d runs of each shuffle, outputs "
        + "equal:%n", program.stockName(), ByteSize.format(size), program.shape(maps, reduces), runs.size() / 2));
    for (Shuffle s : Shuffle.values()) {
      List<Run> of = runs.stream().filter(r -> r.shuffle() == s).toList();
      sb.append(String.format(Locale.ROOT, "  %-6s DAG median %6.1f s (runs %s), application median %6.1f s%n", s,
          median(of, true), of.stream().map(r -> String.format(Locale.ROOT, "%.1f", r.dagSeconds())).toList(),
          median(of, false)));
    }
    List<Run> tez = runs.stream().filter(r -> r.shuffle() == Shuffle.TEZ).toList();
    List<Run> scache = runs.stream().filter(r -> r.shuffle() == Shuffle.SCACHE).toList();
    List<Double> pairs = new ArrayList<>();
    for (int i = 0; i < Math.min(tez.size(), scache.size()); i++) {
      pairs.add(Stats.ratio(scache.get(i).dagSeconds(), tez.get(i).dagSeconds()));
    }
    sb.append(String.format(Locale.ROOT, "  SCache / Tez: DAG %.2f (median of the pairs %s), application %.2f%n",
        Stats.median(pairs), pairs.stream().map(r -> String.format(Locale.ROOT, "%.2f", r)).toList(),
        Stats.ratio(median(scache, false), median(tez, false))));
    Run last = scache.get(scache.size() - 1);
    sb.append(String.format(Locale.ROOT, "  shuffled: Tez %s (SHUFFLE_BYTES), SCache %s read of %s put; consumer "
        + "tasks on the worker placed for them: %d, elsewhere %d, without placement %d (last SCache run)%n",
        ByteSize.format(tez.get(0).counter(TaskCounter.SHUFFLE_BYTES)),
        ByteSize.format(last.counter(ScacheTezCounter.BYTES_READ)),
        ByteSize.format(last.counter(ScacheTezCounter.BYTES_PUT)),
        last.counter(ScacheTezCounter.CONSUMERS_ON_SCHEDULED_WORKER),
        last.counter(ScacheTezCounter.CONSUMERS_OFF_SCHEDULED_WORKER),
        last.counter(ScacheTezCounter.CONSUMERS_WITHOUT_SCHEDULE)));
    return sb.toString();
  }

  private static double median(List<Run> runs, boolean dag) {
    return Stats.median(runs.stream().map(r -> dag ? r.dagSeconds() : r.appSeconds()).toList());
  }
}
