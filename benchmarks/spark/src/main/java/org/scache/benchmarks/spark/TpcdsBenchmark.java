package org.scache.benchmarks.spark;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.scache.benchmarks.harness.netns.Directories;
import org.scache.benchmarks.harness.netns.LinkSampler;
import org.scache.benchmarks.harness.netns.ProcessCpuSampler;

/**
 * TPC-DS queries on the namespaced Spark cluster, Spark's sort shuffle against SCache: the tables are
 * generated once per scale factor ({@link TpcdsTables}) and loaded into Parquet; then, at each link
 * rate, each repetition runs one application per shuffle (which goes first alternates) that runs the
 * queries one after the other. The report gives per query the medians of its time, the time its tasks
 * waited for shuffle data, the bytes the nodes sent and the CPU the executors and SCache's daemons used
 * while it ran, with SCache's ratio to the sort shuffle, and over all queries the total and the mean
 * reduction. Every query's rows must equal the sort shuffle's (as a multiset), or the benchmark fails.
 *
 * <p>Before the measured runs, {@code --warmup} rounds (default 1) run the same queries once on each shuffle,
 * unmeasured, on unshaped links: long-lived daemons (Spark's master and workers, SCache's master and
 * workers) have then compiled their code, as in a cluster that has served queries before; each
 * application still starts its own executors. {@code --warmup 0} measures freshly started daemons;
 * {@code --warmup-queries} warms them with other queries than the measured ones. {@code --queries all} runs every
 * query text Spark ships (q1 to q99, with the variants of q14, q23, q24 and q39).
 *
 * <p>{@code mvn -B -ntp -q -pl benchmarks/spark exec:exec@spark-tpcds-benchmark -Dspark.bench.args="--links 40"};
 * {@code --help} lists the options. Runs as root (network namespaces, tc).
 */
public final class TpcdsBenchmark {
  private static final List<String> SHUFFLES = List.of("sort", "scache");

  /**
   * One query's run at a link rate, with the bytes the nodes sent and the CPU seconds each kind of process
   * used while it ran (roles of {@link SparkNetnsBenchmark#ROLES}).
   */
  record Row(int mbit, int repetition, QueryFigures query, long sent, Map<ProcessCpuSampler.Use, Double> cpu) {
    double cpuSeconds(String role) {
      return ProcessCpuSampler.seconds(cpu, role, null);
    }
  }

  private final Map<String, String> options;
  private final SparkNetnsCluster cluster;
  private final Path results;
  private final Path parquet;
  private final List<Row> rows = new ArrayList<>();

  private TpcdsBenchmark(Map<String, String> options, SparkNetnsCluster cluster, Path results, Path parquet) {
    this.options = options;
    this.cluster = cluster;
    this.results = results;
    this.parquet = parquet;
  }

  public static void main(String[] args) throws Exception {
    Optional<Map<String, String>> parsed = BenchmarkOptions.parse(args, defaults());
    if (parsed.isEmpty()) {
      return;
    }
    Map<String, String> o = parsed.get();
    Path module = Path.of("").toAbsolutePath();
    Path target = module.resolve("target");
    Path results = target.resolve("spark-tpcds-results");
    Directories.deleteRecursively(results);
    Files.createDirectories(results);
    double scale = Double.parseDouble(o.get("scale"));
    Path data = target.resolve("tpcds-data").resolve("sf" + o.get("scale"));
    long t0 = System.nanoTime();
    if (TpcdsTables.generate(scale, data.resolve("dat"), 2)) {
      System.out.printf(Locale.ROOT, "generated TPC-DS at scale %s in %.0f s%n", o.get("scale"),
          (System.nanoTime() - t0) / 1e9);
    }
    SparkNetnsCluster.NodeShape shape = SparkNetnsCluster.NodeShape.of(o);
    System.out.println("starting the cluster: " + o.get("nodes") + " nodes, " + shape);
    try (SparkNetnsCluster cluster = SparkNetnsCluster.start(target.resolve("spark-netns-run"),
        Integer.parseInt(o.get("nodes")), shape, SparkClassPaths.of(module))) {
      TpcdsBenchmark benchmark = new TpcdsBenchmark(o, cluster, results, data.resolve("parquet"));
      benchmark.load(data.resolve("dat"));
      System.exit(benchmark.run());
    }
  }

  private static Map<String, String> defaults() {
    Map<String, String> o = new LinkedHashMap<>();
    o.put("scale", "1");
    o.put("queries", "q3,q5,q17,q25,q29,q47,q57,q64,q75,q78,q95");
    o.put("warmup-queries", "");
    o.put("shuffle-partitions", "200");
    o.put("links", "40");
    o.put("repetitions", "2");
    o.put("file-mib", "32");
    o.put("warmup", "1");
    // which shuffle goes first in the odd repetitions (the other goes first in the even ones)
    o.put("first", "sort");
    SparkNetnsCluster.NodeShape.defaults(o);
    return o;
  }

  /** Loads the generated tables into Parquet on unshaped links, unless an earlier run did. */
  private void load(Path dat) throws IOException, InterruptedException {
    if (Files.exists(parquet.resolve(TpcdsDriver.LOADED))) {
      return;
    }
    Directories.deleteRecursively(parquet);
    Files.createDirectories(parquet);
    cluster.shapeNodeLinks(0);
    driver("tpcds-load", List.of("--mode", "load", "--shuffle", "sort", "--dat", dat.toString(), "--file-bytes",
        Long.toString(Long.parseLong(options.get("file-mib")) << 20)));
  }

  private int run() throws IOException, InterruptedException {
    if (!SHUFFLES.contains(options.get("first"))) {
      throw new IllegalArgumentException("--first is sort or scache, not " + options.get("first"));
    }
    int repetitions = Integer.parseInt(options.get("repetitions"));
    int warmUpProblems = warmUp(Integer.parseInt(options.get("warmup")));
    try (LinkSampler sampler = cluster.sampleLinks(250);
        ProcessCpuSampler cpu = new ProcessCpuSampler(SparkNetnsBenchmark.ROLES, 500)) {
      for (String link : options.get("links").split(",")) {
        int mbit = Integer.parseInt(link.trim());
        cluster.shapeNodeLinks(mbit);
        for (int rep = 1; rep <= repetitions; rep++) {
          for (String shuffle : (rep % 2 == 1) == options.get("first").equals("sort") ? SHUFFLES
              : List.of("scache", "sort")) {
            Path figures = results.resolve("queries-" + mbit + "mbit-" + rep + "-" + shuffle + ".csv");
            queries("tpcds-" + mbit + "mbit-" + rep + "-" + shuffle, shuffle, figures, options.get("queries"));
            List<LinkSampler.Sample> samples = sampler.samples();
            for (QueryFigures q : QueryFigures.read(figures)) {
              rows.add(new Row(mbit, rep, q, LinkSampler.sentBetween(samples, cluster.nodeNames(), q.start(), q.end()),
                  cpu.secondsBetween(q.start(), q.end())));
            }
          }
        }
      }
    }
    TpcdsReport report = new TpcdsReport(rows);
    String summary = String.format(Locale.ROOT,
        "TPC-DS at scale %s, Spark %s, %s nodes x %s cores, %s shuffle partitions, %s repetitions after %s warm-up "
            + "rounds; medians%n",
        options.get("scale"), org.apache.spark.package$.MODULE$.SPARK_VERSION(), options.get("nodes"),
        options.get("cores"), options.get("shuffle-partitions"), options.get("repetitions"), options.get("warmup"))
        + report.summary() + (warmUpProblems == 0 ? "" : warmUpProblems + " warm-up queries FAILED or DIFFER\n");
    Files.writeString(results.resolve("summary.txt"), summary, StandardCharsets.UTF_8);
    Files.writeString(results.resolve("runs.csv"), report.csv(), StandardCharsets.UTF_8);
    report.charts(results);
    System.out.println();
    System.out.print(summary);
    System.out.println("figures and runs.csv in " + results);
    return report.problems() + warmUpProblems == 0 ? 0 : 1;
  }

  /**
   * Runs the queries once on each shuffle, {@code rounds} times, on unshaped links, keeping no figures
   * but the rows' agreement; returns how many queries failed or gave rows other than the sort shuffle's.
   */
  private int warmUp(int rounds) throws IOException, InterruptedException {
    int problems = 0;
    cluster.shapeNodeLinks(0);
    for (int round = 1; round <= rounds; round++) {
      Map<String, String> expected = new HashMap<>();
      for (String shuffle : SHUFFLES) {
        Path figures = results.resolve("warmup-" + round + "-" + shuffle + ".csv");
        queries("tpcds-warmup-" + round + "-" + shuffle, shuffle, figures,
            options.get("warmup-queries").isEmpty() ? options.get("queries") : options.get("warmup-queries"));
        long ms = 0;
        for (QueryFigures q : QueryFigures.read(figures)) {
          ms += q.millis();
          String first = q.failed() ? null : expected.putIfAbsent(q.query(), q.digest());
          if (q.failed() || (first != null && !first.equals(q.digest()))) {
            problems++;
            System.out.println("WARM-UP " + q.query() + " on " + shuffle + (q.failed() ? " FAILED: " + q.failure()
                : ": rows DIFFER from the sort shuffle's"));
          }
        }
        System.out.printf(Locale.ROOT, "warm-up %d, not measured: the queries on %s, %.1f s%n", round, shuffle,
            ms / 1e3);
      }
    }
    return problems;
  }

  /**
   * One application that runs {@code queries} (names of Spark's query texts, comma-separated, or {@code all} for
   * every text, q1 to q99 with their variants) on {@code shuffle}, its figures in {@code figures}.
   */
  private void queries(String name, String shuffle, Path figures, String queries)
      throws IOException, InterruptedException {
    Path texts = cluster.classPaths().jobClasses().getParent().resolve("tpcds-queries").resolve("tpcds");
    String list = queries.equals("all") ? allQueries(texts) : queries;
    driver(name, List.of("--mode", "queries", "--shuffle", shuffle, "--query-texts", texts.toString(),
        "--queries", list, "--shuffle-partitions", options.get("shuffle-partitions"),
        "--figures", figures.toString(), "--spark-conf", options.get("spark-conf-opts")),
        Duration.ofMinutes(Math.max(60, 5L * list.split(",").length)));
  }

  /** Every query text's name, by query number, then variant: q1, q2, ..., q14a, q14b, ..., q99. */
  static String allQueries(Path texts) throws IOException {
    try (var files = Files.list(texts)) {
      return files.map(f -> f.getFileName().toString()).filter(f -> f.matches("q\\d+[a-z]?\\.sql"))
          .map(f -> f.substring(0, f.length() - ".sql".length()))
          .sorted(java.util.Comparator.comparingInt((String q) -> Integer.parseInt(q.replaceAll("\\D", "")))
              .thenComparing(q -> q))
          .collect(java.util.stream.Collectors.joining(","));
    }
  }

  private void driver(String name, List<String> modeArgs) throws IOException, InterruptedException {
    driver(name, modeArgs, Duration.ofMinutes(60));
  }

  private void driver(String name, List<String> modeArgs, Duration timeout) throws IOException, InterruptedException {
    SparkNetnsCluster.NodeShape shape = cluster.shape();
    List<String> args = new ArrayList<>(modeArgs);
    args.addAll(List.of("--parquet", parquet.toString(),
        "--spark-master", cluster.sparkMasterUrl(), "--scache-master", cluster.scacheMasterAddress(),
        "--scache-worker-port", Integer.toString(SparkNetnsCluster.SCACHE_WORKER_PORT),
        "--executors", Integer.toString(cluster.nodeNames().size()), "--executor-cores",
            Integer.toString(shape.cores()),
        "--executor-memory", shape.executorMemoryMb() + "m",
        "--extra-class-path", cluster.classPaths().adapterJar() + ":" + cluster.classPaths().jobClasses()));
    int code = cluster.runDriver(name, TpcdsDriver.class.getName(), args, timeout, l -> {
      if (l.startsWith("QUERY ") || l.startsWith("LOADED ")) {
        System.out.println(l);
      }
    });
    if (code != 0) {
      throw new IOException(name + " failed (exit " + code + "); see " + cluster.runDir().resolve("logs")
          .resolve(name + ".log"));
    }
  }
}
