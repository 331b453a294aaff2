package org.scache.hadoop.map;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.serializer.SerializationFactory;
import org.apache.hadoop.util.QuickSort;

/**
 * The map-side collector's sort ({@link MapOutputSortBuffer}) with and without the keys' first bytes in
 * its index ({@link KeyPrefix}), on TeraSort's records (10-byte keys, 90-byte values, one map's
 * split). A map task sorts once, in a JVM that has just started, so each round sorts in a fresh JVM,
 * the two sides alternating which goes first; it prints each round, the medians and their ratio. The
 * side without prefixes orders keys with a subclass of Text's comparator, which orders them the same
 * but is not one the sort recognises.
 *
 * <pre>
 *   mvn -B -ntp -q -pl hadoop-bench exec:exec@collector-sort-benchmark -Dsort.args="--records 335544 --rounds 8"
 * </pre>
 *
 * It lives in the collector's package because the sort buffer is not public.
 */
public final class CollectorSortBenchmark {
  private static final int KEY_BYTES = 10;
  private static final int VALUE_BYTES = 90;

  private CollectorSortBenchmark() {}

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("--round")) {
      runRound(args[1].equals("prefix"), Integer.parseInt(args[2]), Integer.parseInt(args[3]));
      return;
    }
    int records = 335_544;
    int rounds = 8;
    int partitions = 6;
    for (int i = 0; i < args.length; i++) {
      String value = i + 1 < args.length ? args[i + 1] : null;
      switch (args[i]) {
        case "--records" -> records = positive(args[i], value);
        case "--rounds" -> rounds = positive(args[i], value);
        case "--partitions" -> partitions = positive(args[i], value);
        case "--help", "-h" -> {
          System.out.println("CollectorSortBenchmark [--records N (335544: a 32 MiB TeraSort split)] [--rounds N (8)] "
              + "[--partitions N (6)]");
          return;
        }
        default -> throw new IllegalArgumentException("unknown option " + args[i]
            + " (known: --records, --rounds, --partitions, --help)");
      }
      i++;
    }
    System.out.printf(Locale.ROOT, "%d TeraSort records (%d-byte keys, %d-byte values), %d partitions, "
        + "one fresh JVM per sort%n", records, KEY_BYTES, VALUE_BYTES, partitions);
    List<long[]> withPrefix = new ArrayList<>();
    List<long[]> without = new ArrayList<>();
    for (int r = 0; r < rounds; r++) {
      boolean prefixFirst = r % 2 == 0;
      for (int s = 0; s < 2; s++) {
        boolean prefix = prefixFirst == (s == 0);
        long[] figures = forkRound(prefix, records, partitions);
        (prefix ? withPrefix : without).add(figures);
        System.out.printf(Locale.ROOT, "round %d, %-15s sort %5d ms, JVM CPU %5d ms%n", r + 1,
            prefix ? "key prefixes" : "comparator only", figures[0], figures[1]);
      }
    }
    long sortWith = median(withPrefix, 0);
    long sortWithout = median(without, 0);
    long cpuWith = median(withPrefix, 1);
    long cpuWithout = median(without, 1);
    System.out.printf(Locale.ROOT, "medians: sort %d ms with key prefixes, %d ms comparator only: %.2f%n", sortWith,
        sortWithout, sortWith / (double) sortWithout);
    System.out.printf(Locale.ROOT, "         JVM CPU %d ms with key prefixes, %d ms comparator only: %.2f%n", cpuWith,
        cpuWithout, cpuWith / (double) cpuWithout);
  }

  private static int positive(String option, String value) {
    try {
      int n = Integer.parseInt(value);
      if (n >= 1) {
        return n;
      }
    } catch (NumberFormatException e) {
      // the message below says what was expected
    }
    throw new IllegalArgumentException(option + " takes a whole number of at least 1, not " + value);
  }

  private static long median(List<long[]> runs, int field) {
    long[] values = runs.stream().mapToLong(f -> f[field]).sorted().toArray();
    return values[values.length / 2];
  }

  /** One sort in a fresh JVM: its sort's milliseconds and the JVM's CPU milliseconds. */
  private static long[] forkRound(boolean prefix, int records, int partitions) throws IOException, InterruptedException {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process p = new ProcessBuilder(java.toString(), "-Xmx1g", "-cp", System.getProperty("java.class.path"),
        CollectorSortBenchmark.class.getName(), "--round", prefix ? "prefix" : "plain", Integer.toString(records),
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

  /** The child's side: fills one buffer as a map's collector does, sorts it, prints sort and CPU milliseconds. */
  private static void runRound(boolean prefix, int records, int partitions) throws IOException {
    RawComparator<Text> comparator = prefix ? new Text.Comparator() : new SameOrderAsText();
    SerializationFactory serialization = new SerializationFactory(new Configuration(false));
    MapOutputSortBuffer<Text, Text> buffer = new MapOutputSortBuffer<>(records * (KEY_BYTES + VALUE_BYTES + 4),
        serialization.getSerializer(Text.class), serialization.getSerializer(Text.class), comparator);
    Random random = new Random(42);
    byte[] keyBytes = new byte[KEY_BYTES];
    byte[] valueBytes = new byte[VALUE_BYTES];
    Text key = new Text();
    Text value = new Text();
    for (int i = 0; i < records; i++) {
      random.nextBytes(keyBytes);
      random.nextBytes(valueBytes);
      key.set(keyBytes);
      value.set(valueBytes);
      buffer.add(key, value, Math.floorMod(random.nextInt(), partitions));
    }
    long start = System.nanoTime();
    buffer.sort(new QuickSort(), () -> { });
    long sortMillis = (System.nanoTime() - start) / 1_000_000;
    long cpuMillis = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime() / 1_000_000;
    System.out.println(sortMillis + " " + cpuMillis);
  }

  /** Text's order, from a comparator class the sort does not take for Text's own. */
  private static final class SameOrderAsText extends Text.Comparator {}
}
