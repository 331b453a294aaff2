package org.scache.spark.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.scache.bench.netns.Directories;
import org.scache.bench.netns.LinkSampler;

/**
 * TPC-DS queries on the namespaced Spark cluster, Spark's sort shuffle against SCache: the tables are
 * generated once per scale factor ({@link TpcdsTables}) and loaded into Parquet; then, at each link
 * rate, each repetition runs one application per shuffle (which goes first alternates) that runs the
 * queries one after the other. The report gives per query the medians of its time, the time its tasks
 * waited for shuffle data and the bytes the nodes sent while it ran, with SCache's ratio to the sort
 * shuffle, and over all queries the total and the mean reduction. Every query's rows must equal the
 * sort shuffle's (as a multiset), or the benchmark fails.
 *
 * <p>{@code mvn -B -ntp -q -pl spark-bench exec:exec@spark-tpcds-benchmark -Dspark.bench.args="--links 40"};
 * {@code --help} lists the options. Runs as root (network namespaces, tc).
 */
public final class TpcdsBenchmark {
  private static final List<String> SHUFFLES = List.of("sort", "scache");

  /** One query's run at a link rate, with the bytes the nodes sent while it ran. */
  record Row(int mbit, int repetition, QueryFigures query, long sent) {}

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
    o.put("shuffle-partitions", "200");
    o.put("links", "40");
    o.put("repetitions", "2");
    o.put("file-mib", "32");
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
    int repetitions = Integer.parseInt(options.get("repetitions"));
    try (LinkSampler sampler = cluster.sampleLinks(250)) {
      for (String link : options.get("links").split(",")) {
        int mbit = Integer.parseInt(link.trim());
        cluster.shapeNodeLinks(mbit);
        for (int rep = 1; rep <= repetitions; rep++) {
          for (String shuffle : rep % 2 == 1 ? SHUFFLES : List.of("scache", "sort")) {
            Path figures = results.resolve("queries-" + mbit + "mbit-" + rep + "-" + shuffle + ".csv");
            driver("tpcds-" + mbit + "mbit-" + rep + "-" + shuffle, List.of("--mode", "queries", "--shuffle", shuffle,
                "--query-texts", cluster.classPaths().jobClasses().getParent().resolve("tpcds-queries").resolve("tpcds")
                    .toString(), "--queries", options.get("queries"),
                "--shuffle-partitions", options.get("shuffle-partitions"), "--figures", figures.toString()));
            List<LinkSampler.Sample> samples = sampler.samples();
            for (QueryFigures q : QueryFigures.read(figures)) {
              rows.add(new Row(mbit, rep, q, LinkSampler.sentBetween(samples, cluster.nodeNames(), q.start(), q.end())));
            }
          }
        }
      }
    }
    TpcdsReport report = new TpcdsReport(rows);
    String summary = String.format(Locale.ROOT,
        "TPC-DS at scale %s, Spark %s, %s nodes x %s cores, %s shuffle partitions, %s repetitions; medians%n",
        options.get("scale"), org.apache.spark.package$.MODULE$.SPARK_VERSION(), options.get("nodes"),
        options.get("cores"), options.get("shuffle-partitions"), options.get("repetitions")) + report.summary();
    Files.writeString(results.resolve("summary.txt"), summary, StandardCharsets.UTF_8);
    Files.writeString(results.resolve("runs.csv"), report.csv(), StandardCharsets.UTF_8);
    report.charts(results);
    System.out.println();
    System.out.print(summary);
    System.out.println("figures and runs.csv in " + results);
    return report.problems() == 0 ? 0 : 1;
  }

  private void driver(String name, List<String> modeArgs) throws IOException, InterruptedException {
    SparkNetnsCluster.NodeShape shape = cluster.shape();
    List<String> args = new ArrayList<>(modeArgs);
    args.addAll(List.of("--parquet", parquet.toString(),
        "--spark-master", cluster.sparkMasterUrl(), "--scache-master", cluster.scacheMasterAddress(),
        "--scache-worker-port", Integer.toString(SparkNetnsCluster.SCACHE_WORKER_PORT),
        "--executors", Integer.toString(cluster.nodeNames().size()), "--executor-cores", Integer.toString(shape.cores()),
        "--executor-memory", shape.executorMemoryMb() + "m",
        "--extra-class-path", cluster.classPaths().adapterJar() + ":" + cluster.classPaths().jobClasses()));
    int code = cluster.runDriver(name, TpcdsDriver.class.getName(), args, Duration.ofMinutes(60), l -> {
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
