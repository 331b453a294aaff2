package org.scache.benchmarks.spark;

import io.trino.tpcds.Table;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;

/**
 * A TPC-DS application's driver: {@code --mode load} turns the generated text files into Parquet
 * (once per scale factor, on Spark's sort shuffle); {@code --mode queries} runs the named queries one
 * after the other in one application, as an analyst's session would, and writes for each its time, what
 * its stages shuffled and waited for, and a digest of its rows ({@link QueryFigures}).
 *
 * <pre>
 * TpcdsDriver --mode load --dat DIR --parquet DIR --file-bytes 33554432 (and the cluster's options)
 * TpcdsDriver --mode queries --parquet DIR --query-texts DIR --queries q4,q11 --shuffle-partitions 200
 *     --figures FILE (and the cluster's options: {@link BenchApplication#CLUSTER_OPTIONS})
 * </pre>
 */
public final class TpcdsDriver {
  /** What a Parquet directory holds when every table was written. */
  static final String LOADED = "_LOADED";

  private TpcdsDriver() {}

  public static void main(String[] args) throws Exception {
    List<String> required = new ArrayList<>(BenchApplication.CLUSTER_OPTIONS);
    required.addAll(List.of("mode", "parquet"));
    Map<String, String> o = BenchApplication.options(args, required);
    boolean load = switch (o.get("mode")) {
      case "load" -> true;
      case "queries" -> false;
      default -> throw new IllegalArgumentException("--mode is load or queries, not " + o.get("mode"));
    };
    BenchApplication.require(o, load ? List.of("dat", "file-bytes")
        : List.of("query-texts", "queries", "shuffle-partitions", "figures"));
    SparkConf conf = BenchApplication.conf(o, "tpcds-" + o.get("mode") + "-" + o.get("shuffle"));
    if (!load) {
      conf.set("spark.sql.shuffle.partitions", o.get("shuffle-partitions"));
    }
    SparkSession spark = SparkSession.builder().config(conf).getOrCreate();
    try {
      BenchApplication.awaitExecutors(JavaSparkContext.fromSparkContext(spark.sparkContext()), o);
      if (load) {
        load(spark, Path.of(o.get("dat")), Path.of(o.get("parquet")), Long.parseLong(o.get("file-bytes")));
      } else {
        queries(spark, o);
      }
    } finally {
      spark.stop();
    }
  }

  /** Each table's text files as Parquet, in files of about {@code fileBytes} of text each. */
  private static void load(SparkSession spark, Path dat, Path parquet, long fileBytes) throws Exception {
    for (Table table : TpcdsTables.tables()) {
      List<Path> files = TpcdsTables.files(dat, table);
      if (files.isEmpty()) {
        throw new IllegalStateException("no generated files of " + table.getName() + " in " + dat);
      }
      long bytes = 0;
      for (Path f : files) {
        bytes += Files.size(f);
      }
      int parts = (int) Math.max(1, (bytes + fileBytes - 1) / fileBytes);
      spark.read().schema(TpcdsTables.schema(table)).option("sep", "|")
          .csv(files.stream().map(Path::toString).toArray(String[]::new))
          .repartition(parts).write().mode(SaveMode.Overwrite)
          .parquet(parquet.resolve(TpcdsTables.viewName(table)).toString());
      System.out.println("LOADED " + table.getName() + " " + bytes + " bytes of text into " + parts + " files");
    }
    Files.writeString(parquet.resolve(LOADED), "", StandardCharsets.UTF_8);
  }

  private static void queries(SparkSession spark, Map<String, String> o) throws Exception {
    Path parquet = Path.of(o.get("parquet"));
    for (Table table : TpcdsTables.tables()) {
      String name = TpcdsTables.viewName(table);
      Dataset<Row> rows = spark.read().parquet(parquet.resolve(name).toString());
      if (name.equals("customer")) {
        // Spark's query texts (q30) name the column of the TPC-DS specification c_last_review_date_sk without _sk
        rows = rows.withColumn("c_last_review_date", functions.col("c_last_review_date_sk"));
      }
      rows.createOrReplaceTempView(name);
    }
    StageFigures figures = new StageFigures();
    spark.sparkContext().addSparkListener(figures);
    List<QueryFigures> done = new ArrayList<>();
    StringBuilder stages = new StringBuilder("query,stage,tasks,submitted_ms,completed_ms,shuffle_write_bytes,"
        + "shuffle_read_bytes,name\n");
    StringBuilder tasks = new StringBuilder("query," + RunFigures.TASKS_HEADER);
    for (String query : o.get("queries").split(",")) {
      String text = Files.readString(Path.of(o.get("query-texts")).resolve(query.trim() + ".sql"));
      figures.clear();
      long start = System.currentTimeMillis();
      List<Row> rows;
      String failure = "";
      try {
        rows = spark.sql(text).collectAsList();
      } catch (Exception e) { // an AnalysisException too: the query fails, the next runs
        rows = List.of();
        failure = e.getClass().getSimpleName() + ": " + String.valueOf(e.getMessage()).lines().findFirst().orElse("");
        e.printStackTrace();
      }
      long end = System.currentTimeMillis();
      spark.sparkContext().listenerBus().waitUntilEmpty();
      QueryFigures q = QueryFigures.of(query.trim(), o.get("shuffle"), start, end, rows.size(), digest(rows),
          failure, figures);
      done.add(q);
      System.out.println("QUERY " + q.line());
      QueryFigures.write(Path.of(o.get("figures")), done);
      timeline(query.trim(), figures, stages, tasks);
      Files.writeString(sibling(o.get("figures"), "-stages.csv"), stages, StandardCharsets.UTF_8);
      Files.writeString(sibling(o.get("figures"), "-tasks.csv"), tasks, StandardCharsets.UTF_8);
    }
  }

  /**
   * Appends {@code query}'s stages (their times and shuffle bytes) and tasks ({@link RunFigures#tasksCsv}) to the
   * application's timeline files, which tell where a query's time went: the stages' gaps, the tasks' launches.
   */
  private static void timeline(String query, StageFigures figures, StringBuilder stages, StringBuilder tasks) {
    for (StageFigures.Stage s : figures.stages()) {
      stages.append(String.join(",", query, Integer.toString(s.id()), Integer.toString(s.tasks()),
          Long.toString(s.submitted()), Long.toString(s.completed()), Long.toString(s.shuffleWriteBytes()),
          Long.toString(s.shuffleReadBytes()), s.name().replaceAll("[,\\s]+", " "))).append('\n');
    }
    RunFigures.tasksCsv(figures).lines().skip(1).forEach(l -> tasks.append(query).append(',').append(l).append('\n'));
  }

  private static Path sibling(String figures, String suffix) {
    return Path.of(figures.replaceFirst("\\.csv$", "") + suffix);
  }

  /**
   * A digest of {@code rows} as a multiset: each row's fields as text, doubles to 9 significant digits
   * (their sums depend on the order Spark adds them in), the rows sorted.
   */
  static String digest(List<Row> rows) throws Exception {
    List<String> lines = new ArrayList<>(rows.size());
    for (Row r : rows) {
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < r.length(); i++) {
        Object v = r.get(i);
        if (v instanceof Double || v instanceof Float) {
          double d = ((Number) v).doubleValue();
          sb.append(Double.isFinite(d) ? new BigDecimal(d).round(new java.math.MathContext(9)).toString() : v);
        } else {
          sb.append(v);
        }
        sb.append('|');
      }
      lines.add(sb.toString());
    }
    lines.sort(null);
    MessageDigest sha = MessageDigest.getInstance("SHA-256");
    for (String line : lines) {
      sha.update(line.getBytes(StandardCharsets.UTF_8));
      sha.update((byte) '\n');
    }
    return HexFormat.of().formatHex(sha.digest(), 0, 8).toLowerCase(Locale.ROOT);
  }
}
