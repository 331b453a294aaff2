package org.scache.benchmarks.spark;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.scache.benchmarks.harness.Stats;

/**
 * What the TPC-DS benchmark's runs say: per link rate and query, the medians of each shuffle and SCache's
 * ratio to the sort shuffle, and the CPU each kind of process used while the query ran; over all queries,
 * the sum of the medians and the mean reduction (the paper's figure); the runs as CSV; a chart per link
 * rate; and the problems (failed queries, rows that differ from the sort shuffle's).
 */
final class TpcdsReport {
  /** The kinds of process whose CPU the summary and the CSV give, as {@link SparkNetnsBenchmark#ROLES} names them. */
  private static final List<String> CPU_ROLES = List.of("executors", "SCache workers", "SCache master", "driver",
      "Spark's master and workers");
  /** The CSV columns of {@link #CPU_ROLES}' CPU seconds, in their order. */
  private static final String CPU_COLUMNS = "cpu_s_executors,cpu_s_scache_workers,cpu_s_scache_master,cpu_s_driver,"
      + "cpu_s_spark_daemons";

  private final List<TpcdsBenchmark.Row> rows;

  TpcdsReport(List<TpcdsBenchmark.Row> rows) {
    this.rows = List.copyOf(rows);
  }

  /** Failed queries, and queries whose rows differ from their first run on the sort shuffle. */
  int problems() {
    return problemLines().size();
  }

  private List<String> problemLines() {
    Map<String, String> expected = new HashMap<>();
    for (TpcdsBenchmark.Row r : rows) {
      if (r.query().shuffle().equals("sort") && !r.query().failed()) {
        expected.putIfAbsent(r.query().query(), r.query().digest());
      }
    }
    List<String> problems = new ArrayList<>();
    for (TpcdsBenchmark.Row r : rows) {
      QueryFigures q = r.query();
      String at = q.query() + " on " + q.shuffle() + " at " + link(r.mbit()) + ", repetition " + r.repetition();
      if (q.failed()) {
        problems.add(at + " FAILED: " + q.failure());
      } else if (!q.digest().equals(expected.get(q.query()))) {
        problems.add(at + ": rows DIFFER (" + q.rows() + " rows, digest " + q.digest() + " against "
            + expected.get(q.query()) + ")");
      }
    }
    return problems;
  }

  String summary() {
    StringBuilder sb = new StringBuilder();
    for (int mbit : linkRates()) {
      sb.append(String.format(Locale.ROOT, "%nnode links: %s%n%-6s %9s %9s %7s %11s %11s %11s %11s %11s%n",
          link(mbit), "query", "sort s", "SCache s", "ratio", "shuffle MiB", "wait sort s", "wait SC s",
          "sent sort", "sent SC"));
      double sortSum = 0;
      double scacheSum = 0;
      List<Double> ratios = new ArrayList<>();
      for (Map.Entry<String, List<TpcdsBenchmark.Row>> e : byQuery(mbit).entrySet()) {
        double sort = median(e.getValue(), "sort", q -> q.millis() / 1e3);
        double scache = median(e.getValue(), "scache", q -> q.millis() / 1e3);
        double ratio = Stats.ratio(scache, sort);
        sortSum += sort;
        scacheSum += scache;
        ratios.add(ratio);
        sb.append(String.format(Locale.ROOT, "%-6s %9.1f %9.1f %6.2fx %11.1f %11.1f %11.1f %10.0fM %10.0fM%n",
            e.getKey(), sort, scache, ratio, median(e.getValue(), "sort", q -> q.shuffleWriteBytes() / 1048576.0),
            median(e.getValue(), "sort", q -> q.fetchWaitTotalMs() / 1e3),
            median(e.getValue(), "scache", q -> q.fetchWaitTotalMs() / 1e3),
            medianOfRuns(e.getValue(), "sort", TpcdsBenchmark.Row::sent) / 1048576.0,
            medianOfRuns(e.getValue(), "scache", TpcdsBenchmark.Row::sent) / 1048576.0));
      }
      double logSum = ratios.stream().mapToDouble(Math::log).sum();
      sb.append(String.format(Locale.ROOT, "%-6s %9.1f %9.1f %6.2fx   geometric mean of the ratios %.2fx, mean "
          + "reduction %.0f %%%n", "all", sortSum, scacheSum, Stats.ratio(scacheSum, sortSum),
          Math.exp(logSum / ratios.size()), 100 * ratios.stream().mapToDouble(r -> 1 - r).average().orElse(0)));
      sb.append(cpuTable(mbit));
    }
    List<String> problems = problemLines();
    sb.append(problems.isEmpty() ? "every query's rows equal the sort shuffle's\n"
        : String.join("\n", problems) + "\n");
    return sb.toString();
  }

  /** The CPU seconds each kind of process used while each query ran, medians, per shuffle. */
  private String cpuTable(int mbit) {
    StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "CPU seconds while each query ran, medians "
        + "(sort / SCache):%n%-6s", "query"));
    for (String role : CPU_ROLES) {
      sb.append(String.format(Locale.ROOT, " %21s", role));
    }
    sb.append('\n');
    double[][] sums = new double[CPU_ROLES.size()][2];
    for (Map.Entry<String, List<TpcdsBenchmark.Row>> e : byQuery(mbit).entrySet()) {
      sb.append(String.format(Locale.ROOT, "%-6s", e.getKey()));
      for (int i = 0; i < CPU_ROLES.size(); i++) {
        String role = CPU_ROLES.get(i);
        double sort = medianOfRuns(e.getValue(), "sort", r -> r.cpuSeconds(role));
        double scache = medianOfRuns(e.getValue(), "scache", r -> r.cpuSeconds(role));
        sums[i][0] += sort;
        sums[i][1] += scache;
        sb.append(String.format(Locale.ROOT, " %10.1f / %8.1f", sort, scache));
      }
      sb.append('\n');
    }
    sb.append(String.format(Locale.ROOT, "%-6s", "all"));
    for (double[] sum : sums) {
      sb.append(String.format(Locale.ROOT, " %10.1f / %8.1f", sum[0], sum[1]));
    }
    return sb.append('\n').toString();
  }

  String csv() {
    StringBuilder sb = new StringBuilder("link_mbit,repetition,query,shuffle,ms,rows,digest,failure,stages,tasks,"
        + "shuffle_write_bytes,shuffle_read_bytes,fetch_wait_total_ms,fetch_wait_max_ms,cpu_ms,sent_bytes,"
        + CPU_COLUMNS + "\n");
    for (TpcdsBenchmark.Row r : rows) {
      QueryFigures q = r.query();
      sb.append(String.join(",", Integer.toString(r.mbit()), Integer.toString(r.repetition()), q.query(), q.shuffle(),
          Long.toString(q.millis()), Integer.toString(q.rows()), q.digest(), q.failure(), Integer.toString(q.stages()),
          Integer.toString(q.tasks()), Long.toString(q.shuffleWriteBytes()), Long.toString(q.shuffleReadBytes()),
          Long.toString(q.fetchWaitTotalMs()), Long.toString(q.fetchWaitMaxMs()), Long.toString(q.cpuMs()),
          Long.toString(r.sent())));
      for (String role : CPU_ROLES) {
        sb.append(String.format(Locale.ROOT, ",%.2f", r.cpuSeconds(role)));
      }
      sb.append('\n');
    }
    return sb.toString();
  }

  /** Per link rate, each query's median time on each shuffle as bars ({@code tpcds-<rate>.png}). */
  void charts(Path dir) throws IOException {
    for (int mbit : linkRates()) {
      List<QueryTimeChart.Query> queries = new ArrayList<>();
      byQuery(mbit).forEach((query, list) -> queries.add(new QueryTimeChart.Query(query,
          median(list, "sort", q -> q.millis() / 1e3), median(list, "scache", q -> q.millis() / 1e3))));
      QueryTimeChart.write(dir.resolve("tpcds-" + (mbit == 0 ? "unshaped" : mbit + "mbit") + ".png"),
          "TPC-DS queries, " + link(mbit) + " node links: Spark's sort shuffle and SCache", queries);
    }
  }

  private List<Integer> linkRates() {
    return rows.stream().map(TpcdsBenchmark.Row::mbit).distinct().toList();
  }

  private Map<String, List<TpcdsBenchmark.Row>> byQuery(int mbit) {
    Map<String, List<TpcdsBenchmark.Row>> out = new LinkedHashMap<>();
    rows.stream().filter(r -> r.mbit() == mbit).forEach(r -> out.computeIfAbsent(r.query().query(),
        k -> new ArrayList<>()).add(r));
    return out;
  }

  private double median(List<TpcdsBenchmark.Row> runs, String shuffle, ToDoubleFunction<QueryFigures> f) {
    return medianOfRuns(runs, shuffle, r -> f.applyAsDouble(r.query()));
  }

  /** The median of {@code f} over the runs of {@code shuffle} whose query did not fail. */
  private double medianOfRuns(List<TpcdsBenchmark.Row> runs, String shuffle, ToDoubleFunction<TpcdsBenchmark.Row> f) {
    return Stats.median(runs.stream().filter(r -> r.query().shuffle().equals(shuffle) && !r.query().failed())
        .map(f::applyAsDouble).toList());
  }

  private static String link(int mbit) {
    return mbit == 0 ? "unshaped" : mbit + " Mbit/s";
  }
}
