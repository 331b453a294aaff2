package org.scache.benchmarks.hadoop;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.scache.benchmarks.harness.Stats;

/**
 * The map-side collector's sort with and without the keys' first bytes in its index, on one map's split of
 * TeraSort records ({@link CollectorSortRound}). A map task sorts once, in a JVM that has just started, so
 * each round sorts in a fresh JVM, the two sides alternating which goes first; it prints each round, the
 * medians and their ratio.
 *
 * <pre>
 *   mvn -B -ntp -q -pl benchmarks/hadoop exec:exec@collector-sort-benchmark -Dsort.args="--records 335544 --rounds 8"
 * </pre>
 */
public final class CollectorSortBenchmark {
  private CollectorSortBenchmark() {}

  public static void main(String[] args) throws Exception {
    Options options = new Options("The map-side collector's sort with and without key prefixes, a fresh JVM per sort",
        new Options.Option("records", "335544", "records to sort (335544: a 32 MiB TeraSort split)"),
        new Options.Option("rounds", "8", "sorts on each side"),
        new Options.Option("partitions", "6", "reduce partitions the records are spread over"));
    int records;
    int rounds;
    int partitions;
    try {
      if (!options.parse(args)) {
        return;
      }
      records = atLeastOne(options, "records");
      rounds = atLeastOne(options, "rounds");
      partitions = atLeastOne(options, "partitions");
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.exit(2);
      return;
    }
    System.out.printf(Locale.ROOT, "%d TeraSort records (%d-byte keys, %d-byte values), %d partitions, "
        + "one fresh JVM per sort%n", records, CollectorSortRound.KEY_BYTES, CollectorSortRound.VALUE_BYTES,
        partitions);
    List<Double> sortWith = new ArrayList<>();
    List<Double> sortWithout = new ArrayList<>();
    List<Double> cpuWith = new ArrayList<>();
    List<Double> cpuWithout = new ArrayList<>();
    for (int r = 0; r < rounds; r++) {
      for (int s = 0; s < 2; s++) {
        boolean prefix = (r % 2 == 0) == (s == 0);
        long[] figures = forkRound(prefix, records, partitions);
        (prefix ? sortWith : sortWithout).add((double) figures[0]);
        (prefix ? cpuWith : cpuWithout).add((double) figures[1]);
        System.out.printf(Locale.ROOT, "round %d, %-15s sort %5d ms, JVM CPU %5d ms%n", r + 1,
            prefix ? "key prefixes" : "comparator only", figures[0], figures[1]);
      }
    }
    printMedians("sort", sortWith, sortWithout);
    printMedians("JVM CPU", cpuWith, cpuWithout);
  }

  private static int atLeastOne(Options options, String name) {
    int n = options.getInt(name);
    if (n < 1) {
      throw new IllegalArgumentException("--" + name + " takes a whole number of at least 1, not " + n);
    }
    return n;
  }

  private static void printMedians(String what, List<Double> with, List<Double> without) {
    double a = Stats.median(with);
    double b = Stats.median(without);
    System.out.printf(Locale.ROOT, "median %s: %.0f ms with key prefixes, %.0f ms comparator only: %.2f%n", what, a, b,
        Stats.ratio(a, b));
  }

  /** One sort in a fresh JVM: its sort's milliseconds and the JVM's CPU milliseconds. */
  private static long[] forkRound(boolean prefix, int records, int partitions) throws IOException,
      InterruptedException {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process p = new ProcessBuilder(java.toString(), "-Xmx1g", "-cp", System.getProperty("java.class.path"),
        CollectorSortRound.class.getName(), prefix ? "prefix" : "plain", Integer.toString(records),
        Integer.toString(partitions)).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    String line;
    try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      line = out.readLine();
    }
    if (p.waitFor() != 0 || line == null) {
      throw new IOException("the sort's JVM failed (exit " + p.exitValue() + ")");
    }
    String[] f = line.trim().split(" ");
    return new long[] {Long.parseLong(f[0]), Long.parseLong(f[1])};
  }
}
