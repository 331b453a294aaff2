package org.scache.benchmarks.hadoop;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.scache.benchmarks.hadoop.netns.ClassPaths;
import org.scache.benchmarks.hadoop.netns.NetnsCluster;
import org.scache.benchmarks.harness.ByteSize;
import org.scache.benchmarks.harness.MachineSpeed;
import org.scache.benchmarks.harness.chart.LinkRateChart;
import org.scache.benchmarks.harness.chart.RatioByLinkChart;
import org.scache.benchmarks.harness.netns.LinkSampler;
import org.scache.benchmarks.harness.netns.ProcessCpuSampler;
import org.scache.benchmarks.harness.netns.StageCpu;
import org.scache.hadoop.frq.Shuffle;

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
        new Options.Option("links", "40,none", "node link rates in Mbit/s, comma-separated; none: unshaped (40: the "
            + "paper's network per core on two cores)"),
        new Options.Option("sizes", "1.5g", "input sizes, comma-separated (1.5g: five map waves on three nodes)"),
        new Options.Option("repetitions", "2", "runs of each shuffle per size and link"),
        new Options.Option("slowstart", "", "reduce slow start of the SCache jobs (default: SCache's)"),
        new Options.Option("worker-settings", "", "scache.* settings for every worker, key=value, comma-separated "
            + "(example: scache.worker.fetch.receive.buffer.bytes=64k)"),
        new Options.Option("warmup", "256m", "on each fresh cluster, sort this much once on each shuffle before the "
            + "measured runs, unmeasured (0: none)"));
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
      exit = run(options.getInt("nodes"), links, sizes, options.getInt("repetitions"), options.get("slowstart"),
          warmupSize(options.get("warmup")), workerSettings(options.get("worker-settings")));
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      exit = 2;
    }
    System.exit(exit);
  }

  /** A link rate in Mbit/s as the options give it; {@code none} (unshaped) is 0. */
  public static int parseLink(String text) {
    String t = text.trim();
    try {
      return t.equals("none") ? 0 : Integer.parseInt(t);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not a link rate in Mbit/s: " + text + " (examples: 40, 300, none)", e);
    }
  }

  /** The warm-up's size as the options give it; {@code 0} or {@code none}: no warm-up. */
  static long warmupSize(String text) {
    String t = text.trim();
    return t.equals("0") || t.equals("none") ? 0 : ByteSize.parse(t);
  }

  /** The workers' settings as the options give them: {@code scache.*} key=value pairs, comma-separated. */
  static Map<String, String> workerSettings(String text) {
    return NetnsCluster.checkWorkerSettings(TerasortBenchmark.settings(text));
  }

  /** A link rate's name in results and reports: {@code 40mbit}, or {@code unshaped} for 0. */
  public static String linkName(int mbit) {
    return mbit <= 0 ? "unshaped" : mbit + "mbit";
  }

  static int run(int nodes, List<Integer> links, List<Long> sizes, int repetitions, String slowstart, long warmup,
      Map<String, String> workerSettings) {
    Path module = Path.of("").toAbsolutePath();
    Path results = module.resolve("target").resolve(NAME);
    Console console;
    try {
      console = Console.startIn(results, NAME);
    } catch (IOException e) {
      System.err.println("cannot write into " + results + ": " + e);
      return 1;
    }
    long started = System.nanoTime();
    String speed = MachineSpeed.measure().describe();
    console.detail(speed);
    long largest = sizes.stream().mapToLong(Long::longValue).max().orElseThrow();
    StringBuilder summary = new StringBuilder(speed).append(" before the clusters started\n");
    if (!workerSettings.isEmpty()) {
      summary.append("workers' settings: ").append(workerSettings).append('\n');
      console.detail("workers' settings: " + workerSettings);
    }
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
            Math.max(512 * ByteSize.MIB, largest), classPaths, 1, 0, workerSettings)) {
          cluster.shapeNodeLinks(mbit);
          console.detail(String.format(Locale.ROOT, "ready in %.1f s: %s; logs in %s", Console.secondsSince(t),
              cluster.nodeNames(), cluster.runDir().resolve("logs")));
          List<String> client = new ArrayList<>(List.of("--cluster", cluster.runDir().toString(), "--results",
              linkResults.toString(), "--sizes", String.join(",", sizes.stream().map(ByteSize::tag).toList()),
              "--repetitions", Integer.toString(repetitions)));
          if (warmup > 0) {
            client.addAll(List.of("--warmup", ByteSize.tag(warmup)));
          }
          if (!slowstart.isBlank()) {
            client.addAll(List.of("--slowstart", slowstart));
          }
          if (mbit > 0) {
            // a reduce weighs waiting for its node against reading its input over a link of this rate
            client.addAll(List.of("--remote-rate", Long.toString(mbit * 1_000_000L / 8)));
          }
          List<LinkSampler.Sample> samples;
          List<NetworkPhases> runs;
          List<StageCpu> cpu;
          try (LinkSampler sampler = cluster.sampleLinks(250); ProcessCpuSampler cpuSampler =
              new ProcessCpuSampler(ROLES, 500)) {
            int code = cluster.runClient("terasort-" + link, TerasortBenchmark.class.getName(), client,
                Duration.ofHours(3), line -> console.detail("  " + line));
            if (code != 0) {
              throw new IllegalStateException("the TeraSort client failed (exit " + code + "); see " + linkResults);
            }
            Files.writeString(linkResults.resolve("application-masters.txt"),
                ApplicationMasterLines.collect(cluster.runDir().resolve("nm-logs")), StandardCharsets.UTF_8);
            samples = sampler.samples();
            runs = NetworkPhases.of(linkResults.resolve("runs.csv"), samples, cluster.nodeNames());
            cpu = runs.stream().map(r -> StageCpu.of(cpuSampler, r.shuffle().name(), r.submit(), r.lastMapFinish(),
                r.finish())).toList();
          }
          Files.writeString(linkResults.resolve("network.csv"), NetworkPhases.csv(runs), StandardCharsets.UTF_8);
          Files.writeString(linkResults.resolve("link-samples.csv"), samplesCsv(samples), StandardCharsets.UTF_8);
          Files.writeString(linkResults.resolve("cpu.csv"), cpuCsv(runs, cpu), StandardCharsets.UTF_8);
          Path chart = results.resolve("network-" + link + ".png");
          LinkRateChart.write(chart, "TeraSort of " + ByteSize.format(largest) + ", node links " + link,
              NetworkPhases.lastPair(runs, largest), samples);
          List<NetnsFrq.Pair> fitted = NetnsFrq.fit(linkResults.resolve("runs.csv"), samples, cluster.nodeNames());
          sweep.add(NetnsFrq.chartPoint(mbit <= 0 ? "unshaped" : mbit + " Mbit/s", fitted, largest));
          String frq = NetnsFrq.format(fitted);
          Files.writeString(linkResults.resolve("frq.txt"), frq, StandardCharsets.UTF_8);
          summary.append("links ").append(link).append(":\n")
              .append(Files.readString(linkResults.resolve("summary.txt"), StandardCharsets.UTF_8))
              .append(NetworkPhases.format(runs)).append(cpuTable(runs, cpu)).append(frq).append('\n');
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

  /** The processes whose CPU the benchmark reports: tasks, application masters, daemons, by main class. */
  static final ProcessCpuSampler.Roles ROLES = new ProcessCpuSampler.Roles() {
    @Override
    public String of(String commandLine) {
      if (commandLine.contains("org.apache.hadoop.mapred.YarnChild")) {
        return commandLine.matches(".*attempt_\\d+_\\d+_m_.*") ? "map tasks" : "reduce tasks";
      }
      if (commandLine.contains("MRAppMaster") || commandLine.contains("ScacheAppMaster")) {
        return "application masters";
      }
      if (commandLine.contains("org.apache.hadoop.yarn.server.nodemanager.NodeManager")) {
        return "NodeManagers";
      }
      if (commandLine.contains("org.scache.master.MasterMain")) {
        return "SCache master";
      }
      if (commandLine.contains(TerasortBenchmark.class.getName())) {
        return "job client";
      }
      return commandLine.contains("org.apache.hadoop.") ? "other Hadoop daemons" : null;
    }

    @Override
    public String ofThread(String processRole, String threadName) {
      // the SCache worker runs inside the NodeManager, as its auxiliary service
      return processRole.equals("NodeManagers") && threadName.startsWith("scache-") ? "SCache workers (in NMs)"
          : processRole;
    }
  };

  /** Per size, the CPU each kind of process used in the map and in the reduce stage, medians per shuffle. */
  private static String cpuTable(List<NetworkPhases> runs, List<StageCpu> cpu) {
    StringBuilder sb = new StringBuilder();
    for (long size : runs.stream().map(NetworkPhases::size).distinct().sorted().toList()) {
      List<StageCpu> of = new ArrayList<>();
      for (int i = 0; i < runs.size(); i++) {
        if (runs.get(i).size() == size) {
          of.add(cpu.get(i));
        }
      }
      sb.append("CPU by process, ").append(ByteSize.format(size)).append(", medians:\n")
          .append(StageCpu.table("  ", List.of(Shuffle.HADOOP.name(), Shuffle.SCACHE.name()), of));
    }
    return sb.toString();
  }

  private static String cpuCsv(List<NetworkPhases> runs, List<StageCpu> cpu) {
    StringBuilder sb = new StringBuilder("size_bytes,repetition,shuffle,stage,process,part,cpu_s\n");
    for (int i = 0; i < runs.size(); i++) {
      NetworkPhases r = runs.get(i);
      sb.append(cpu.get(i).csv(r.size() + "," + r.repetition() + "," + r.shuffle()));
    }
    return sb.toString();
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
