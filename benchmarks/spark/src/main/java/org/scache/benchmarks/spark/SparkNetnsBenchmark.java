package org.scache.benchmarks.spark;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToDoubleFunction;
import org.scache.benchmarks.harness.ByteSize;
import org.scache.benchmarks.harness.Stats;
import org.scache.benchmarks.harness.chart.LinkRateChart;
import org.scache.benchmarks.harness.chart.RatioByLinkChart;
import org.scache.benchmarks.harness.netns.Directories;
import org.scache.benchmarks.harness.netns.LinkSampler;
import org.scache.benchmarks.harness.netns.ProcessCpuSampler;
import org.scache.benchmarks.harness.netns.StageCpu;

/**
 * Spark's sort shuffle against SCache on the namespaced Spark cluster: each program runs as its own
 * application on each shuffle, the two alternating (which goes first changes every repetition), at each
 * link rate; the report gives per program and rate the medians of the job, its map and reduce stages,
 * the reduce tasks' shuffle read (fetch wait) times, the share of the bytes the nodes sent during the
 * map stage, and how many reduce tasks ran where SCache placed them, with SCache's ratio to the sort
 * shuffle. Every run's output digest must equal the sort shuffle's, or the benchmark fails.
 *
 * <p>Before the measured runs, {@code --warmup} rounds run each program of {@code --warmup-programs} (a GroupBy by
 * default) on at most {@value #WARMUP_MAX_BYTES} bytes on each shuffle on unshaped links, unmeasured: the cluster's
 * daemons (Spark's master and workers,
 * SCache's master and workers) are long-lived services, whose one-time class loading and compilation a
 * cluster pays once, not in every job; each application's executors and driver start afresh either way.
 * {@code --warmup 0} measures freshly started daemons instead. Then the same programs run through SCache alone
 * with wider shuffles ({@code --daemon-maps} x {@code --daemon-reduces}) until the SCache daemons' compilers use
 * less than {@code --daemon-settled-jit} CPU seconds in a round ({@code --daemon-rounds} at most, 0 for none): a
 * short program's round calls their methods too few times for the optimising compiler, which a daemon serving
 * applications for days has long run. With {@code --warm-jobs N} each measured
 * application first runs N GroupBys of {@code --warm-size} bytes, unmeasured, on the same executors and
 * links: its executors are then as warm as a long-lived application's, where the default measures a job
 * that starts its application's executors.
 *
 * <p>{@code mvn -B -ntp -q -pl benchmarks/spark exec:exec@spark-netns-benchmark -Dspark.bench.args="--links 40"};
 * {@code --help} lists the options. Runs as root (network namespaces, tc).
 */
public final class SparkNetnsBenchmark {
  private static final List<String> SHUFFLES = List.of("sort", "scache");
  static final long WARMUP_MAX_BYTES = 256L << 20;
  /** The cores every process of the namespaced cluster shares. */
  private static final int MACHINE_CORES = Runtime.getRuntime().availableProcessors();

  private final Map<String, String> options;
  private final SparkNetnsCluster cluster;
  private final Path results;
  private final List<Row> rows = new ArrayList<>();

  /** The processes whose CPU the benchmark reports, by their main class. */
  static final ProcessCpuSampler.Roles ROLES = commandLine -> {
    if (commandLine.contains("org.scache.worker.WorkerMain")) {
      return "SCache workers";
    }
    if (commandLine.contains("org.scache.master.MasterMain")) {
      return "SCache master";
    }
    if (commandLine.contains("CoarseGrainedExecutorBackend")) {
      return "executors";
    }
    if (commandLine.contains(SparkBenchDriver.class.getName()) || commandLine.contains(TpcdsDriver.class.getName())) {
      return "driver";
    }
    return commandLine.contains("org.apache.spark.deploy.") ? "Spark's master and workers" : null;
  };

  /**
   * One run with the link rate it ran at, the file its figures are in, the bytes the nodes sent during
   * and after its map stage, the fewest and the most one node sent in the whole job (unequal when the maps
   * ran unevenly across the nodes: the last seconds then run on one link), and the CPU each kind of process
   * used in the map and in the reduce stage.
   */
  record Row(int mbit, int repetition, Path figures, RunFigures run, long sentDuringMaps, long sentAfterMaps,
      long leastSentByNode, long mostSentByNode, StageCpu cpu) {
    double shareDuringMaps() {
      long total = sentDuringMaps + sentAfterMaps;
      return total == 0 ? Double.NaN : (double) sentDuringMaps / total;
    }
  }

  private SparkNetnsBenchmark(Map<String, String> options, SparkNetnsCluster cluster, Path results) {
    this.options = options;
    this.cluster = cluster;
    this.results = results;
  }

  public static void main(String[] args) throws Exception {
    Optional<Map<String, String>> parsed = BenchmarkOptions.parse(args, defaults());
    if (parsed.isEmpty()) {
      return;
    }
    Map<String, String> o = parsed.get();
    BenchJobs.valueBytes(o.get("value-bytes"));
    Path module = Path.of("").toAbsolutePath();
    Path results = module.resolve("target").resolve("spark-netns-results");
    Directories.deleteRecursively(results);
    Files.createDirectories(results);
    SparkNetnsCluster.NodeShape shape = SparkNetnsCluster.NodeShape.of(o);
    System.out.println("starting the cluster: " + o.get("nodes") + " nodes, " + shape);
    try (SparkNetnsCluster cluster = SparkNetnsCluster.start(module.resolve("target").resolve("spark-netns-run"),
        Integer.parseInt(o.get("nodes")), shape, SparkClassPaths.of(module))) {
      int code = new SparkNetnsBenchmark(o, cluster, results).run();
      System.exit(code);
    }
  }

  private static Map<String, String> defaults() {
    Map<String, String> o = new LinkedHashMap<>();
    o.put("programs", "groupby,terasort");
    o.put("size", "512m");
    o.put("maps", "24");
    o.put("reduces", "12");
    // bytes of a GroupBy record's value (its key has 8); Spark's GroupByTest, the paper's test, uses 1000
    o.put("value-bytes", Integer.toString(BenchJobs.VALUE_BYTES));
    o.put("links", "40");
    o.put("repetitions", "2");
    o.put("warmup", "1");
    // the programs each warm-up round runs on both shuffles (terasort excepted), so that the long-lived daemons,
    // as in a cluster that has run for days, have compiled the paths the measured programs take
    o.put("warmup-programs", "groupby");
    // after those rounds, the warm-up programs again through SCache alone with daemon-maps x daemon-reduces
    // blocks a shuffle, round after round until the SCache daemons' compilers use less than daemon-settled-jit CPU
    // seconds in one, at most daemon-rounds rounds: a daemon compiles its code over many applications, and a short
    // program of few blocks calls its methods too few times a round for the JVM's optimising compiler
    o.put("daemon-rounds", "8");
    o.put("daemon-settled-jit", "0.2");
    o.put("daemon-maps", "36");
    o.put("daemon-reduces", "36");
    // unmeasured GroupBys each application runs on its executors before the measured job, and their size
    o.put("warm-jobs", "0");
    o.put("warm-size", "64m");
    SparkNetnsCluster.NodeShape.defaults(o);
    return o;
  }

  private int run() throws IOException, InterruptedException {
    long size = ByteSize.parse(options.get("size"));
    int repetitions = Integer.parseInt(options.get("repetitions"));
    Map<String, String> expected = new HashMap<>();
    int mismatches = 0;
    try (LinkSampler sampler = cluster.sampleLinks(250); ProcessCpuSampler cpu = new ProcessCpuSampler(ROLES, 500)) {
      Map<String, String> warmOutputs = new HashMap<>();
      mismatches += warmUp(Integer.parseInt(options.get("warmup")), Math.min(size, WARMUP_MAX_BYTES), warmOutputs);
      mismatches += settleDaemons(cpu, Math.min(size, WARMUP_MAX_BYTES), warmOutputs);
      for (String programName : options.get("programs").split(",")) {
        BenchJobs.Program program = BenchJobs.Program.parse(programName);
        if (program == BenchJobs.Program.TERASORT) {
          cluster.shapeNodeLinks(0);
          driver("teragen", "sort", size, results.resolve("teragen.properties"), 0);
        }
        for (String link : options.get("links").split(",")) {
          int mbit = Integer.parseInt(link.trim());
          cluster.shapeNodeLinks(mbit);
          for (int rep = 1; rep <= repetitions; rep++) {
            List<String> order = rep % 2 == 1 ? SHUFFLES : List.of("scache", "sort");
            for (String shuffle : order) {
              Path figures = results.resolve(program.label() + "-" + mbit + "mbit-" + rep + "-" + shuffle
                  + ".properties");
              driver(program.label(), shuffle, size, figures, Integer.parseInt(options.get("warm-jobs")));
              RunFigures run = RunFigures.read(figures);
              List<LinkSampler.Sample> samples = sampler.samples();
              List<Long> byNode = cluster.nodeNames().stream()
                  .map(n -> LinkSampler.sentBetween(samples, List.of(n), run.jobStart(), run.jobEnd())).toList();
              Row row = new Row(mbit, rep, figures, run,
                  LinkSampler.sentBetween(samples, cluster.nodeNames(), run.mapStart(), run.mapEnd()),
                  LinkSampler.sentBetween(samples, cluster.nodeNames(), run.mapEnd(), run.jobEnd()),
                  Collections.min(byNode), Collections.max(byNode),
                  StageCpu.of(cpu, shuffle, run.jobStart(), run.mapEnd(), run.jobEnd()));
              rows.add(row);
              String first = expected.putIfAbsent(program.label(), run.output());
              if (first != null && !first.equals(run.output())) {
                mismatches++;
                System.out.println("OUTPUT DIFFERS: " + run.output() + " against " + first);
              }
              System.out.println(line(row));
            }
          }
        }
      }
      Files.writeString(results.resolve("links.csv"), linksCsv(sampler.samples()), StandardCharsets.UTF_8);
      charts(sampler.samples());
    }
    Files.writeString(results.resolve("runs.csv"), csv(), StandardCharsets.UTF_8);
    Files.writeString(results.resolve("cpu.csv"), cpuCsv(), StandardCharsets.UTF_8);
    String summary = summary() + (mismatches == 0 ? "every run's output equals the sort shuffle's\n"
        : mismatches + " runs' output DIFFERS from the sort shuffle's\n");
    Files.writeString(results.resolve("summary.txt"), summary, StandardCharsets.UTF_8);
    System.out.println();
    System.out.print(summary);
    System.out.println("figures, runs.csv and links.csv in " + results);
    return mismatches == 0 ? 0 : 1;
  }

  /**
   * Runs each program of {@code --warmup-programs} on {@code size} bytes on each shuffle, {@code rounds} times, on
   * unshaped links, and keeps no figures but the outputs' agreement; returns how many outputs differed.
   */
  private int warmUp(int rounds, long size, Map<String, String> outputs) throws IOException, InterruptedException {
    int mismatches = 0;
    cluster.shapeNodeLinks(0);
    for (int round = 1; round <= rounds; round++) {
      for (String name : options.get("warmup-programs").split(",")) {
        BenchJobs.Program program = BenchJobs.Program.parse(name);
        if (program == BenchJobs.Program.TERASORT) {
          throw new IllegalArgumentException("--warmup-programs cannot run terasort, which needs its input first");
        }
        String first = null;
        for (String shuffle : SHUFFLES) {
          Path figures = results.resolve("warmup-" + round + "-" + program.label() + "-" + shuffle + ".properties");
          driver(program.label(), shuffle, size, figures, 0);
          RunFigures run = RunFigures.read(figures);
          System.out.printf(Locale.ROOT, "warm-up %d, not measured: %s of %s on %s, %.1f s%n", round,
              program.label(), ByteSize.format(size), shuffle, run.jobMs() / 1e3);
          if (first == null) {
            first = run.output();
            outputs.putIfAbsent(program.label(), first);
          } else if (!first.equals(run.output())) {
            mismatches++;
            System.out.println("OUTPUT DIFFERS: " + run.output() + " against " + first);
          }
        }
      }
    }
    return mismatches;
  }

  /**
   * Runs each program of {@code --warmup-programs} through SCache alone, unmeasured, round after round until the
   * SCache daemons' compiler threads use less than {@code --daemon-settled-jit} CPU seconds in a round, at most
   * {@code --daemon-rounds} rounds, with {@code --daemon-maps} x {@code --daemon-reduces} blocks a shuffle; prints
   * each round's compiler CPU. A round of a short program of few blocks calls each of the daemons' methods a few
   * hundred times, below the count at which the JVM compiles it with its optimising compiler, so without these
   * rounds the measured runs would carry compilation that a long-lived daemon has done once. Returns how many
   * rounds' outputs differed from the first's.
   */
  private int settleDaemons(ProcessCpuSampler cpu, long size, Map<String, String> outputs)
      throws IOException, InterruptedException {
    int maxRounds = Integer.parseInt(options.get("daemon-rounds"));
    double settled = Double.parseDouble(options.get("daemon-settled-jit"));
    int mismatches = 0;
    for (int round = 1; round <= maxRounds; round++) {
      double jit = 0;
      double seconds = 0;
      for (String name : options.get("warmup-programs").split(",")) {
        BenchJobs.Program program = BenchJobs.Program.parse(name);
        Path figures = results.resolve("daemons-" + round + "-" + program.label() + ".properties");
        driver(program.label(), "scache", size, figures, 0, options.get("daemon-maps"),
            options.get("daemon-reduces"));
        RunFigures run = RunFigures.read(figures);
        Map<ProcessCpuSampler.Use, Double> use = cpu.secondsBetween(run.jobStart(), run.jobEnd());
        jit += ProcessCpuSampler.seconds(use, "SCache workers", ProcessCpuSampler.Part.JIT)
            + ProcessCpuSampler.seconds(use, "SCache master", ProcessCpuSampler.Part.JIT);
        seconds += run.jobMs() / 1e3;
        String expected = outputs.putIfAbsent(program.label() + " wide", run.output());
        if (expected != null && !expected.equals(run.output())) {
          mismatches++;
          System.out.println("OUTPUT DIFFERS: " + run.output() + " against " + expected);
        }
      }
      System.out.printf(Locale.ROOT, "daemons' warm-up %d through SCache, not measured: %.1f s, the SCache daemons' "
          + "compilers %.2f CPU s%n", round, seconds, jit);
      if (jit < settled) {
        break;
      }
    }
    return mismatches;
  }

  /** For each program and link rate, its last repetition on both shuffles: a network chart and a timeline. */
  private void charts(List<LinkSampler.Sample> samples) throws IOException {
    int nodes = Integer.parseInt(options.get("nodes"));
    Map<String, List<Row>> groups = new LinkedHashMap<>();
    rows.forEach(r -> groups.computeIfAbsent(r.run.program() + "-" + (r.mbit == 0 ? "unshaped" : r.mbit + "mbit"),
        k -> new ArrayList<>()).add(r));
    for (Map.Entry<String, List<Row>> group : groups.entrySet()) {
      int last = group.getValue().stream().mapToInt(Row::repetition).max().orElse(0);
      List<LinkRateChart.Run> network = new ArrayList<>();
      List<SparkTimelineChart.Panel> timeline = new ArrayList<>();
      for (String shuffle : SHUFFLES) {
        for (Row r : group.getValue()) {
          if (r.repetition == last && r.run.shuffle().equals(shuffle)) {
            String label = (shuffle.equals("sort") ? "Spark's sort shuffle" : "SCache") + ", repetition " + last;
            network.add(new LinkRateChart.Run(label, r.run.jobStart(), r.run.mapEnd(), r.run.jobEnd(),
                r.sentDuringMaps, r.sentAfterMaps));
            timeline.add(new SparkTimelineChart.Panel(label, r.run.jobStart(), r.run.jobEnd(),
                SparkTimelineChart.readTasks(SparkBenchDriver.tasksFile(r.figures))));
          }
        }
      }
      String title = group.getKey().replace("-", ", ").replace("mbit", " Mbit/s node links");
      LinkRateChart.write(results.resolve("network-" + group.getKey() + ".png"), title, network, samples);
      SparkTimelineChart.write(results.resolve("timeline-" + group.getKey() + ".png"), title, timeline);
    }
    ratioCharts();
  }

  /** For each program run at more than one link rate: SCache's job time over the sort shuffle's, by link rate. */
  private void ratioCharts() throws IOException {
    Map<String, Map<Integer, List<Double>>> byProgram = new LinkedHashMap<>();
    for (Row r : rows) {
      if (!r.run.shuffle().equals("scache")) {
        continue;
      }
      rows.stream().filter(b -> b.run.shuffle().equals("sort") && b.mbit == r.mbit && b.repetition == r.repetition
          && b.run.program().equals(r.run.program())).findFirst().ifPresent(b -> byProgram
              .computeIfAbsent(r.run.program(), k -> new LinkedHashMap<>())
              .computeIfAbsent(r.mbit, k -> new ArrayList<>()).add((double) r.run.jobMs() / b.run.jobMs()));
    }
    for (Map.Entry<String, Map<Integer, List<Double>>> program : byProgram.entrySet()) {
      if (program.getValue().size() < 2) {
        continue;
      }
      List<RatioByLinkChart.Point> points = new ArrayList<>();
      program.getValue().entrySet().stream()
          .sorted(Map.Entry.comparingByKey((a, b) -> Integer.compare(a == 0 ? Integer.MAX_VALUE : a,
              b == 0 ? Integer.MAX_VALUE : b)))
          .forEach(e -> points.add(new RatioByLinkChart.Point(e.getKey() == 0 ? "unshaped" : e.getKey() + " Mbit/s",
              e.getValue(), Double.NaN)));
      RatioByLinkChart.write(results.resolve("ratio-by-link-" + program.getKey() + ".png"),
          program.getKey() + ": SCache's job time over Spark's sort shuffle's, by node link rate", points, "");
    }
  }

  /** Runs {@code program} as an application on {@code shuffle}, after {@code warmJobs} unmeasured GroupBys in it. */
  private void driver(String program, String shuffle, long size, Path figures, int warmJobs)
      throws IOException, InterruptedException {
    driver(program, shuffle, size, figures, warmJobs, options.get("maps"), options.get("reduces"));
  }

  private void driver(String program, String shuffle, long size, Path figures, int warmJobs, String maps,
      String reduces) throws IOException, InterruptedException {
    SparkNetnsCluster.NodeShape shape = cluster.shape();
    List<String> args = List.of("--program", program, "--shuffle", shuffle, "--size", Long.toString(size),
        "--maps", maps, "--reduces", reduces,
        "--spark-master", cluster.sparkMasterUrl(), "--scache-master", cluster.scacheMasterAddress(),
        "--scache-worker-port", Integer.toString(SparkNetnsCluster.SCACHE_WORKER_PORT),
        "--executors", Integer.toString(cluster.nodeNames().size()), "--executor-cores",
            Integer.toString(shape.cores()),
        "--executor-memory", shape.executorMemoryMb() + "m",
        "--extra-class-path", cluster.classPaths().adapterJar() + ":" + cluster.classPaths().jobClasses(),
        "--data", cluster.runDir().resolve("data").resolve("terasort-input").toString(),
        "--figures", figures.toString(), "--spark-conf", options.get("spark-conf-opts"),
        "--warm-jobs", Integer.toString(warmJobs), "--value-bytes", options.get("value-bytes"),
        "--warm-size", Long.toString(ByteSize.parse(options.get("warm-size"))));
    String name = "driver-" + figures.getFileName().toString().replace(".properties", "");
    int code = cluster.runDriver(name, SparkBenchDriver.class.getName(), args, Duration.ofMinutes(30),
        l -> { });
    if (code != 0) {
      throw new IOException(name + " failed (exit " + code + "); see " + cluster.runDir().resolve("logs")
          .resolve(name + ".log"));
    }
  }

  private static String line(Row r) {
    RunFigures f = r.run;
    return String.format(Locale.ROOT, "%-8s %4s Mbit/s #%d %-6s job %6.1f s  maps %6.1f s  reduces %6.1f s  "
        + "fetch wait/task %5.2f s (max %5.2f)  sent during maps %3.0f%%  a node sent %3d-%3d MB  placed %s  "
        + "cpu maps %5.1f s reduces %5.1f s  tasks process-local %d, on any host %d",
        f.program(), r.mbit == 0 ? "-" : Integer.toString(r.mbit), r.repetition, f.shuffle(), f.jobMs() / 1e3,
        f.mapStageMs() / 1e3, f.reduceStageMs() / 1e3, f.fetchWaitMedianMs() / 1e3, f.fetchWaitMaxMs() / 1e3,
        100 * r.shareDuringMaps(), r.leastSentByNode / 1_000_000, r.mostSentByNode / 1_000_000,
        f.onPlacedHost() < 0 ? "-" : f.onPlacedHost() + "/" + f.reduceTasks(),
        f.mapCpuMs() / 1e3, f.reduceCpuMs() / 1e3, f.processLocalTasks(), f.anyHostTasks());
  }

  private String summary() {
    StringBuilder sb = new StringBuilder(String.format(Locale.ROOT,
        "Spark %s, %s nodes x %s cores, %s per program (GroupBy values of %s bytes), %s maps, %s reduces, %s "
        + "repetitions after %s warm-up rounds, %s unmeasured jobs of %s before each measured one in its "
        + "application; medians%n",
        org.apache.spark.package$.MODULE$.SPARK_VERSION(), options.get("nodes"), options.get("cores"),
        ByteSize.format(ByteSize.parse(options.get("size"))), options.get("value-bytes"),
        options.get("maps"), options.get("reduces"), options.get("repetitions"), options.get("warmup"),
        options.get("warm-jobs"), ByteSize.format(ByteSize.parse(options.get("warm-size")))));
    sb.append(String.format(Locale.ROOT, "%-9s %-7s %-7s %8s %8s %8s %11s %11s %9s %8s %9s %9s%n", "program", "link",
        "shuffle", "job s", "maps s", "reduce s", "wait/task s", "wait sum s", "sent@maps", "placed", "map cpu s",
        "red cpu s"));
    int nodes = Integer.parseInt(options.get("nodes"));
    Map<String, List<Row>> groups = new LinkedHashMap<>();
    rows.forEach(r -> groups.computeIfAbsent(r.run.program() + "|" + r.mbit, k -> new ArrayList<>()).add(r));
    groups.forEach((key, list) -> {
      Map<String, double[]> medians = new HashMap<>();
      for (String shuffle : SHUFFLES) {
        List<Row> of = list.stream().filter(r -> r.run.shuffle().equals(shuffle)).toList();
        double[] m = {
            median(of, r -> r.run.jobMs() / 1e3), median(of, r -> r.run.mapStageMs() / 1e3),
            median(of, r -> r.run.reduceStageMs() / 1e3), median(of, r -> r.run.fetchWaitMedianMs() / 1e3),
            median(of, r -> r.run.fetchWaitTotalMs() / 1e3), median(of, Row::shareDuringMaps),
            median(of, r -> r.run.onPlacedHost()), median(of, r -> r.run.mapCpuMs() / 1e3),
            median(of, r -> r.run.reduceCpuMs() / 1e3)};
        medians.put(shuffle, m);
        Row any = list.get(0);
        sb.append(String.format(Locale.ROOT, "%-9s %-7s %-7s %8.1f %8.1f %8.1f %11.2f %11.1f %8.0f%% %8s %9.1f %9.1f%n",
            any.run.program(), any.mbit == 0 ? "none" : any.mbit + "M", shuffle, m[0], m[1], m[2], m[3], m[4],
            100 * m[5], m[6] < 0 ? "-" : String.format(Locale.ROOT, "%.0f/%d", m[6], any.run.reduceTasks()), m[7],
            m[8]));
      }
      double[] s = medians.get("sort");
      double[] c = medians.get("scache");
      sb.append(String.format(Locale.ROOT,
          "%-9s %-7s %-7s %7.2fx %7.2fx %7.2fx %10.2fx %10.2fx %9s %8s %8.2fx %8.2fx%n",
          "", "", "ratio", Stats.ratio(c[0], s[0]), Stats.ratio(c[1], s[1]), Stats.ratio(c[2], s[2]),
          Stats.ratio(c[3], s[3]), Stats.ratio(c[4], s[4]), "", "", Stats.ratio(c[7], s[7]),
          Stats.ratio(c[8], s[8])));
      List<Row> scache = list.stream().filter(r -> r.run.shuffle().equals("scache")).toList();
      sb.append(reduceStageFloor(median(scache, r -> ProcessCpuSampler.seconds(r.cpu.reduces(), "executors", null)),
          MACHINE_CORES, median(scache, r -> (double) r.sentAfterMaps / nodes), list.get(0).mbit, s[2]));
    });
    sb.append(cpuSummary(groups));
    return sb.toString();
  }

  /**
   * The shortest reduce stage SCache's runs allow on this machine, beside what it is of the sort shuffle's
   * reduce stage: the larger of the executors' CPU in it (the reduce tasks with their collector and compilers:
   * decoding, grouping or sorting, which no shuffle takes out of a reduce) spread over every core of the
   * machine, which all the cluster's processes share, and the bytes a node still sent after the maps (its mean)
   * at the link rate ({@code mbit} 0: unshaped, no link term). Where that share is above a ratio, no placement
   * or prefetch brings SCache's reduce stage to that ratio here.
   */
  static String reduceStageFloor(double executorsCpuS, int machineCores, double bytesAfterMapsPerNode, int mbit,
      double sortReduceStageS) {
    double cpu = executorsCpuS / machineCores;
    double link = mbit == 0 ? 0 : bytesAfterMapsPerNode / (mbit * 1e6 / 8);
    double floor = Math.max(cpu, link);
    return String.format(Locale.ROOT, "%-25s reduce stage floor %.1f s, %.2f of the sort shuffle's: the executors' "
        + "CPU in it over the machine's %d cores %.1f s, a node's bytes sent after the maps over its link %s%n", "",
        floor, Stats.ratio(floor, sortReduceStageS), machineCores, cpu,
        mbit == 0 ? "(unshaped)" : String.format(Locale.ROOT, "%.1f s", link));
  }

  /** Per program and link rate, the CPU each kind of process used in each stage on each shuffle. */
  private static String cpuSummary(Map<String, List<Row>> groups) {
    StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%nCPU by process, medians%n"));
    groups.forEach((key, list) -> {
      Row any = list.get(0);
      sb.append(any.run.program()).append(", links ").append(any.mbit == 0 ? "unshaped" : any.mbit + " Mbit/s")
          .append(":\n").append(StageCpu.table("  ", SHUFFLES, list.stream().map(Row::cpu).toList()));
    });
    return sb.toString();
  }

  private String cpuCsv() {
    StringBuilder sb = new StringBuilder("program,link_mbit,repetition,shuffle,stage,process,part,cpu_s\n");
    rows.forEach(r -> sb.append(r.cpu.csv(String.join(",", r.run.program(), Integer.toString(r.mbit),
        Integer.toString(r.repetition), r.run.shuffle()))));
    return sb.toString();
  }

  private static double median(List<Row> rows, ToDoubleFunction<Row> f) {
    return Stats.median(rows.stream().map(r -> f.applyAsDouble(r)).toList());
  }

  private String csv() {
    StringBuilder sb = new StringBuilder("program,link_mbit,repetition,shuffle,job_ms,map_stage_ms,reduce_stage_ms,"
        + "fetch_wait_median_ms,fetch_wait_max_ms,fetch_wait_total_ms,shuffle_bytes,local_bytes,remote_bytes,"
        + "reduce_tasks,on_placed_host,map_cpu_ms,reduce_cpu_ms,sent_during_maps,sent_after_maps,"
        + "least_sent_by_a_node,most_sent_by_a_node,job_start_ms,"
        + "map_end_ms,job_end_ms,output\n");
    for (Row r : rows) {
      RunFigures f = r.run;
      sb.append(String.join(",", f.program(), Integer.toString(r.mbit), Integer.toString(r.repetition), f.shuffle(),
          Long.toString(f.jobMs()), Long.toString(f.mapStageMs()), Long.toString(f.reduceStageMs()),
          Long.toString(f.fetchWaitMedianMs()), Long.toString(f.fetchWaitMaxMs()), Long.toString(f.fetchWaitTotalMs()),
          Long.toString(f.shuffleBytes()), Long.toString(f.localBytes()), Long.toString(f.remoteBytes()),
          Integer.toString(f.reduceTasks()), Integer.toString(f.onPlacedHost()), Long.toString(f.mapCpuMs()),
          Long.toString(f.reduceCpuMs()), Long.toString(r.sentDuringMaps), Long.toString(r.sentAfterMaps),
          Long.toString(r.leastSentByNode), Long.toString(r.mostSentByNode), Long.toString(f.jobStart()),
          Long.toString(f.mapEnd()), Long.toString(f.jobEnd()),
          '"' + f.output() + '"')).append('\n');
    }
    return sb.toString();
  }

  private static String linksCsv(List<LinkSampler.Sample> samples) {
    StringBuilder sb = new StringBuilder("time_ms,node,received_bytes,sent_bytes\n");
    for (LinkSampler.Sample s : samples) {
      sb.append(s.time()).append(',').append(s.node()).append(',').append(s.received()).append(',').append(s.sent())
          .append('\n');
    }
    return sb.toString();
  }
}
