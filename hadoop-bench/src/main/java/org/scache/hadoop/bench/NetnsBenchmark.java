package org.scache.hadoop.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.scache.bench.ByteSize;
import org.scache.bench.MachineSpeed;
import org.scache.bench.chart.LinkRateChart;
import org.scache.bench.chart.RatioByLinkChart;
import org.scache.bench.netns.Directories;
import org.scache.bench.netns.LinkSampler;
import org.scache.hadoop.bench.netns.ClassPaths;
import org.scache.hadoop.bench.netns.NetnsCluster;

/**
 * TeraSort on the namespaced cluster ({@link NetnsCluster}), Hadoop's shuffle against SCache, at
 * several link speeds: for each, a fresh cluster, its node links shaped, and {@link TerasortBenchmark}
 * run as the job client on the control host. Meanwhile the links' counters are read four times a
 * second, so that every run also reports the bytes the nodes sent during its map stage and after it,
 * and a chart shows each node's sending rate over time (Hadoop's shuffle and SCache, the largest size's
 * last repetition). Results go to {@code target/netns-benchmark/}.
 */
public final class NetnsBenchmark {
  private static final String NAME = "netns-benchmark";

  private NetnsBenchmark() {}

  public static void main(String[] args) {
    Options options = new Options("TeraSort on a cluster of separate daemons in network namespaces, Hadoop's shuffle "
        + "against SCache, at several link speeds (root)",
        new Options.Option("nodes", "3", "NodeManager hosts"),
        new Options.Option("links", "none,1000,300", "node link rates in Mbit/s, comma-separated; none: unshaped"),
        new Options.Option("sizes", "256m,1g", "input sizes, comma-separated"),
        new Options.Option("repetitions", "3", "runs of each shuffle per size and link"),
        new Options.Option("slowstart", "", "reduce slow start of the SCache jobs (default: SCache's)"));
    int exit;
    try {
      if (!options.parse(args)) {
        return;
      }
      List<Long> sizes = ByteSize.parseList(options.get("sizes"));
      List<Integer> links = new ArrayList<>();
      for (String l : options.get("links").split(",")) {
        links.add(parseLink(l));
      }
      exit = run(options.getInt("nodes"), links, sizes, options.getInt("repetitions"), options.get("slowstart"));
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      exit = 2;
    }
    System.exit(exit);
  }

  /** A link rate in Mbit/s as the options give it; {@code none} (unshaped) is 0. */
  static int parseLink(String text) {
    String t = text.trim();
    try {
      return t.equals("none") ? 0 : Integer.parseInt(t);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not a link rate in Mbit/s: " + text + " (examples: 40, 300, none)", e);
    }
  }

  static String linkName(int mbit) {
    return mbit <= 0 ? "unshaped" : mbit + "mbit";
  }

  static int run(int nodes, List<Integer> links, List<Long> sizes, int repetitions, String slowstart) {
    Path module = Path.of("").toAbsolutePath();
    Path results = module.resolve("target").resolve(NAME);
    Console console;
    try {
      Directories.deleteRecursively(results);
      Files.createDirectories(results);
      console = Console.start(results.resolve(NAME + ".log"));
    } catch (IOException e) {
      System.err.println("cannot write into " + results + ": " + e);
      return 1;
    }
    long started = System.nanoTime();
    String speed = MachineSpeed.measure().describe();
    console.detail(speed);
    long largest = sizes.stream().mapToLong(Long::longValue).max().orElseThrow();
    StringBuilder summary = new StringBuilder(speed).append(" before the clusters started\n");
    List<RatioByLinkChart.Point> sweep = new ArrayList<>();
    try {
      ClassPaths classPaths = ClassPaths.of(module);
      for (int mbit : links) {
        String link = linkName(mbit);
        Path linkResults = results.resolve(link);
        console.phase(String.format(Locale.ROOT, "links %s: starting %d NodeManager hosts, the control host and the "
            + "SCache master", link, nodes));
        long t = System.nanoTime();
        try (NetnsCluster cluster = NetnsCluster.start(module.resolve("target").resolve("netns-cluster"), nodes,
            Math.max(512 * ByteSize.MIB, largest), classPaths)) {
          cluster.shapeNodeLinks(mbit);
          console.detail(String.format(Locale.ROOT, "ready in %.1f s: %s; logs in %s", Console.secondsSince(t),
              cluster.nodeNames(), cluster.runDir().resolve("logs")));
          List<String> client = new ArrayList<>(List.of("--cluster", cluster.runDir().toString(), "--results",
              linkResults.toString(), "--sizes", String.join(",", sizes.stream().map(ByteSize::tag).toList()),
              "--repetitions", Integer.toString(repetitions)));
          if (!slowstart.isBlank()) {
            client.addAll(List.of("--slowstart", slowstart));
          }
          if (mbit > 0) {
            // a reduce weighs waiting for its node against reading its input over a link of this rate
            client.addAll(List.of("--remote-rate", Long.toString(mbit * 1_000_000L / 8)));
          }
          List<LinkSampler.Sample> samples;
          int code;
          try (LinkSampler sampler = cluster.sampleLinks(250)) {
            code = cluster.runClient("terasort-" + link, TerasortBenchmark.class.getName(), client,
                Duration.ofHours(3), line -> console.detail("  " + line));
            samples = sampler.samples();
          }
          if (code != 0) {
            throw new IllegalStateException("the TeraSort client failed (exit " + code + "); see " + linkResults);
          }
          List<NetworkPhases> runs = NetworkPhases.of(linkResults.resolve("runs.csv"), samples, cluster.nodeNames());
          Files.writeString(linkResults.resolve("network.csv"), NetworkPhases.csv(runs), StandardCharsets.UTF_8);
          Files.writeString(linkResults.resolve("link-samples.csv"), samplesCsv(samples), StandardCharsets.UTF_8);
          Path chart = results.resolve("network-" + link + ".png");
          LinkRateChart.write(chart, "TeraSort of " + ByteSize.format(largest) + ", node links " + link,
              NetworkPhases.lastPair(runs, largest), samples);
          List<NetnsFrq.Pair> fitted = NetnsFrq.fit(linkResults.resolve("runs.csv"), samples, cluster.nodeNames());
          sweep.add(NetnsFrq.chartPoint(mbit <= 0 ? "unshaped" : mbit + " Mbit/s", fitted, largest));
          String frq = NetnsFrq.format(fitted);
          Files.writeString(linkResults.resolve("frq.txt"), frq, StandardCharsets.UTF_8);
          summary.append("links ").append(link).append(":\n")
              .append(Files.readString(linkResults.resolve("summary.txt"), StandardCharsets.UTF_8))
              .append(NetworkPhases.format(runs)).append(frq).append('\n');
          console.detail("network chart: " + chart);
          console.phase("links " + link + ": stopping the cluster");
        }
      }
      Path sweepChart = results.resolve("job-ratio-by-link.png");
      RatioByLinkChart.write(sweepChart, "TeraSort of " + ByteSize.format(largest) + ", SCache against Hadoop's "
          + "shuffle, by node link rate", sweep, "FRQ model, from the Hadoop job alone");
      console.detail("job ratio by link rate: " + sweepChart);
      Files.writeString(results.resolve("summary.txt"), summary.toString(), StandardCharsets.UTF_8);
      console.print("\n" + summary);
      console.phase(String.format(Locale.ROOT, "benchmark done in %.0f s; results in %s", Console.secondsSince(started),
          results));
      return 0;
    } catch (Throwable e) {
      console.print("\nBENCHMARK FAILED: " + e);
      e.printStackTrace();
      if (summary.length() > 0) {
        console.print("completed so far:\n" + summary);
      }
      return 1;
    }
  }

  private static String samplesCsv(List<LinkSampler.Sample> samples) {
    StringBuilder sb = new StringBuilder("time_ms,node,received_bytes,sent_bytes\n");
    for (LinkSampler.Sample s : samples) {
      sb.append(s.time()).append(',').append(s.node()).append(',').append(s.received()).append(',')
          .append(s.sent()).append('\n');
    }
    return sb.toString();
  }
}
