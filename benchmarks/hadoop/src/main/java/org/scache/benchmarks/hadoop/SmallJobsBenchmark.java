package org.scache.benchmarks.hadoop;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.scache.benchmarks.harness.ByteSize;
import org.scache.benchmarks.harness.Stats;
import org.scache.hadoop.MiniScacheYarnCluster;
import org.scache.hadoop.frq.Shuffle;

/**
 * Small jobs, as a user's first jobs are: Hadoop's example word count and TeraSort on small inputs with
 * one to four reduces, on the demo's mini cluster (three NodeManagers on this machine, a loopback address each), each
 * on Hadoop's shuffle and through SCache, taking turns to run first, outputs compared byte for byte. Prints
 * per job the median job times, SCache's time over Hadoop's (seconds and ratio), the reduce stage and
 * how many reduces ran on the node SCache placed them on; writes every run into
 * {@code target/small-jobs-benchmark/runs.csv}. The target: no small job more than 1 s slower than on
 * Hadoop's shuffle, and at least 90 % of the reduces on their placed node. As in the namespaced
 * benchmarks, the cluster first runs the first job once on each shuffle, unmeasured ({@code --warmup}):
 * a cluster's daemons are long-lived, and its first job on either shuffle pays for their loading and
 * compiling the code it takes.
 */
public final class SmallJobsBenchmark {
  private static final String NAME = "small-jobs-benchmark";
  static final double EXTRA_SECONDS_TARGET = 1.0;
  static final double PLACED_TARGET = 0.9;

  /** One job of the benchmark: {@code kind:size:reduces}. */
  record SmallJob(String kind, long inputBytes, int reduces) {
    static SmallJob parse(String spec) {
      String[] parts = spec.trim().split(":");
      if (parts.length != 3 || !(parts[0].equals("wordcount") || parts[0].equals("terasort"))) {
        throw new IllegalArgumentException("a job is wordcount|terasort:SIZE:REDUCES, not " + spec);
      }
      return new SmallJob(parts[0], ByteSize.parse(parts[1]), Integer.parseInt(parts[2]));
    }

    String label() {
      return kind + " " + ByteSize.format(inputBytes) + ", " + reduces + (reduces == 1 ? " reduce" : " reduces");
    }
  }

  record Pair(SmallJob job, int repetition, JobFigures hadoop, JobFigures scache) {
    double extraSeconds() {
      return scache.jobSeconds() - hadoop.jobSeconds();
    }
  }

  private SmallJobsBenchmark() {}

  public static void main(String[] args) {
    Options options = new Options("Small jobs (word count, TeraSort; 1-4 reduces), Hadoop's shuffle against SCache",
        new Options.Option("jobs", "wordcount:16m:1,wordcount:96m:2,terasort:32m:1,terasort:128m:2,terasort:192m:4",
            "jobs, comma-separated, each wordcount|terasort:SIZE:REDUCES"),
        new Options.Option("repetitions", "2", "runs of each shuffle per job"),
        new Options.Option("warmup", "1", "unmeasured runs of the first job on each shuffle before the measured ones"),
        new Options.Option("slowstart", "", "reduce slow start of the SCache jobs (default: SCache's)"),
        new Options.Option("task-java-opts", "", "JVM options added to every task of both shuffles, for example "
            + "-XX:StartFlightRecording=filename=/tmp/jfr,settings=profile to profile them"),
        new Options.Option("results", "", "where the results go (default: target/" + NAME + ")"));
    int exit;
    try {
      if (!options.parse(args)) {
        return;
      }
      List<SmallJob> jobs = new ArrayList<>();
      for (String spec : options.get("jobs").split(",")) {
        jobs.add(SmallJob.parse(spec));
      }
      int repetitions = options.getInt("repetitions");
      if (repetitions < 1) {
        throw new IllegalArgumentException("--repetitions must be at least 1");
      }
      int warmup = options.getInt("warmup");
      if (warmup < 0) {
        throw new IllegalArgumentException("--warmup must be at least 0");
      }
      exit = run(jobs, repetitions, warmup, options.get("slowstart"), options.get("task-java-opts"),
          options.get("results"));
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      exit = 2;
    }
    System.exit(exit);
  }

  private static int run(List<SmallJob> jobs, int repetitions, int warmup, String slowstart, String taskJavaOpts,
      String resultsDir) {
    Path target = Path.of("target").toAbsolutePath();
    Path results = resultsDir.isBlank() ? target.resolve(NAME) : Path.of(resultsDir).toAbsolutePath();
    Path logFile = results.resolve(NAME + ".log");
    Console console;
    try {
      MiniScacheYarnCluster.deleteRecursively(results);
      Files.createDirectories(results);
      console = Console.start(logFile);
    } catch (java.io.IOException e) {
      System.err.println("cannot write into " + results + ": " + e);
      return 1;
    }
    long started = System.nanoTime();
    console.print(String.format(Locale.ROOT, "SCache benchmark: %d small jobs, %d repetitions each, Hadoop's shuffle "
        + "and SCache taking turns%nThe cluster's and the jobs' log: %s%n", jobs.size(), repetitions, logFile));
    List<Pair> pairs = new ArrayList<>();
    try {
      console.phase("starting 3 NodeManagers, each with an SCache worker, and the SCache master");
      try (TerasortCluster cluster = TerasortCluster.start(NAME, 3, 512 * ByteSize.MIB)) {
        cluster.withTaskJavaOpts(taskJavaOpts);
        TerasortRunner runner = new TerasortRunner(cluster, console, slowstart);
        for (int w = 1; w <= warmup; w++) {
          SmallJob job = jobs.get(0);
          console.phase(String.format(Locale.ROOT, "warm-up %d of %d, unmeasured: %s on each shuffle", w, warmup,
              job.label()));
          Path input = writeInput(runner, cluster, console, job);
          runPair(runner, cluster, console, job, input, w, true);
          MiniScacheYarnCluster.deleteRecursively(input);
        }
        for (SmallJob job : jobs) {
          Path input = writeInput(runner, cluster, console, job);
          for (int rep = 1; rep <= repetitions; rep++) {
            boolean hadoopFirst = rep % 2 == 1;
            console.phase(String.format(Locale.ROOT, "%s: repetition %d of %d, %s first", job.label(), rep,
                repetitions, hadoopFirst ? "Hadoop's shuffle" : "SCache"));
            pairs.add(runPair(runner, cluster, console, job, input, rep, hadoopFirst));
          }
          MiniScacheYarnCluster.deleteRecursively(input);
          Files.writeString(results.resolve("runs.csv"), csv(pairs), StandardCharsets.UTF_8);
        }
        console.phase("stopping the cluster");
      }
      String summary = summary(pairs, slowstart);
      console.finish(results, summary, started);
      return 0;
    } catch (Throwable e) {
      console.failed(e);
      return 1;
    }
  }

  private static Path writeInput(TerasortRunner runner, TerasortCluster cluster, Console console, SmallJob job)
      throws Exception {
    Path input = cluster.dir().resolve("input");
    console.phase(job.label() + ": writing the input");
    if (job.kind().equals("wordcount")) {
      TextInput.write(job.inputBytes(), input);
    } else {
      runner.generate(job.inputBytes(), input);
    }
    return input;
  }

  /** Runs {@code job} on both shuffles, in the order given, and compares their outputs byte for byte. */
  private static Pair runPair(TerasortRunner runner, TerasortCluster cluster, Console console, SmallJob job,
      Path input, int repetition, boolean hadoopFirst) throws Exception {
    Path hadoopOut = cluster.dir().resolve("out-hadoop");
    Path scacheOut = cluster.dir().resolve("out-scache");
    JobFigures hadoop = null;
    JobFigures scache = null;
    for (Shuffle shuffle : hadoopFirst ? List.of(Shuffle.HADOOP, Shuffle.SCACHE)
        : List.of(Shuffle.SCACHE, Shuffle.HADOOP)) {
      JobFigures f = runOne(runner, cluster, job, input, shuffle == Shuffle.HADOOP ? hadoopOut : scacheOut,
          shuffle).job();
      if (shuffle == Shuffle.HADOOP) {
        hadoop = f;
      } else {
        scache = f;
      }
    }
    SameOutput.Compared same = SameOutput.check(hadoopOut, scacheOut);
    Pair pair = new Pair(job, repetition, hadoop, scache);
    console.detail(String.format(Locale.ROOT, "outputs identical (%d files, %s); job %.1f s vs %.1f s (%+.1f s), "
        + "reduce stage %.1f s vs %.1f s, reduces placed %s", same.files(), ByteSize.format(same.bytes()),
        hadoop.jobSeconds(), scache.jobSeconds(), pair.extraSeconds(), hadoop.reduceStageSeconds(),
        scache.reduceStageSeconds(), PairReport.placed(scache)));
    MiniScacheYarnCluster.deleteRecursively(hadoopOut);
    MiniScacheYarnCluster.deleteRecursively(scacheOut);
    return pair;
  }

  private static TerasortRunner.SortRun runOne(TerasortRunner runner, TerasortCluster cluster, SmallJob job,
      Path input, Path output, Shuffle shuffle) throws Exception {
    if (job.kind().equals("terasort")) {
      return runner.sort(input, output, shuffle, job.reduces());
    }
    // the text files are smaller than a split: one map each
    return runner.run("word count", new WordCountTool(), cluster.jobConf(), input, output, shuffle, job.reduces());
  }

  static String summary(List<Pair> pairs, String slowstart) {
    Map<SmallJob, List<Pair>> byJob = new LinkedHashMap<>();
    for (Pair p : pairs) {
      byJob.computeIfAbsent(p.job(), k -> new ArrayList<>()).add(p);
    }
    StringBuilder sb = new StringBuilder(String.format(Locale.ROOT,
        "Small jobs, 3 NodeManagers on one machine (a loopback address each), %d cores, SCache reduce slow start %s; "
            + "medians:%n",
        Runtime.getRuntime().availableProcessors(), slowstart.isBlank() ? "default" : slowstart.trim()));
    sb.append(String.format(Locale.ROOT, "%-28s %4s %9s %9s %9s %6s %9s %9s %8s%n", "job", "reps", "Hadoop", "SCache",
        "extra", "ratio", "reduce st", "reduce st", "placed"));
    sb.append(String.format(Locale.ROOT, "%-28s %4s %9s %9s %9s %6s %9s %9s %8s%n", "", "", "", "", "", "", "Hadoop",
        "SCache", ""));
    long placed = 0;
    long elsewhere = 0;
    boolean timeMet = true;
    for (Map.Entry<SmallJob, List<Pair>> e : byJob.entrySet()) {
      List<Pair> runs = e.getValue();
      double extra = median(runs, Pair::extraSeconds);
      timeMet &= extra <= EXTRA_SECONDS_TARGET;
      long on = runs.stream().mapToLong(p -> p.scache().reducesOnScheduledNode()).sum();
      long off = runs.stream().mapToLong(p -> p.scache().reducesElsewhere()).sum();
      placed += on;
      elsewhere += off;
      sb.append(String.format(Locale.ROOT, "%-28s %4d %7.1f s %7.1f s %+7.1f s %6.2f %7.1f s %7.1f s %8s%n",
          e.getKey().label(), runs.size(), median(runs, p -> p.hadoop().jobSeconds()),
          median(runs, p -> p.scache().jobSeconds()), extra,
          median(runs, p -> Stats.ratio(p.scache().jobSeconds(), p.hadoop().jobSeconds())),
          median(runs, p -> p.hadoop().reduceStageSeconds()), median(runs, p -> p.scache().reduceStageSeconds()),
          on + " of " + (on + off)));
    }
    double placedShare = placed + elsewhere == 0 ? Double.NaN : placed / (double) (placed + elsewhere);
    sb.append(String.format(Locale.ROOT,
        "target: every job at most %+.1f s (%s); reduces on their placed node >= %.0f %% "
        + "(%s: %.0f %%)%n", EXTRA_SECONDS_TARGET, timeMet ? "met" : "NOT met", 100 * PLACED_TARGET,
        placedShare >= PLACED_TARGET ? "met" : "NOT met", 100 * placedShare));
    return sb.toString();
  }

  static String csv(List<Pair> pairs) {
    StringBuilder sb = new StringBuilder("job,input_bytes,reduces,repetition,shuffle,job_id,job_s,map_stage_s,"
        + "reduce_stage_s,reduces_on_scheduled_node,reduces_elsewhere,submit_ms,first_map_start_ms,last_map_finish_ms,"
        + "finish_ms\n");
    for (Pair p : pairs) {
      for (JobFigures j : List.of(p.hadoop(), p.scache())) {
        sb.append(String.format(Locale.ROOT, "%s,%d,%d,%d,%s,%s,%.3f,%.3f,%.3f,%d,%d,%d,%d,%d,%d%n", p.job().kind(),
            p.job().inputBytes(), p.job().reduces(), p.repetition(), j.shuffle(), j.id(), j.jobSeconds(),
            j.mapStageSeconds(), j.reduceStageSeconds(), j.reducesOnScheduledNode(), j.reducesElsewhere(), j.submit(),
            j.firstMapStart(), j.lastMapFinish(), j.finish()));
      }
    }
    return sb.toString();
  }

  private static double median(List<Pair> runs, ToDoubleFunction<Pair> f) {
    List<Double> values = new ArrayList<>();
    for (Pair p : runs) {
      values.add(f.applyAsDouble(p));
    }
    return Stats.median(values);
  }
}
