package org.scache.benchmarks.tez;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.scache.benchmarks.hadoop.Console;
import org.scache.benchmarks.hadoop.NetnsBenchmark;
import org.scache.benchmarks.hadoop.Options;
import org.scache.benchmarks.hadoop.netns.ClassPaths;
import org.scache.benchmarks.hadoop.netns.NetnsCluster;
import org.scache.benchmarks.harness.ByteSize;
import org.scache.benchmarks.harness.MachineSpeed;
import org.scache.benchmarks.harness.netns.LinkSampler;

/**
 * Stock multi-stage Tez DAGs (tez-examples' OrderedWordCount, SortMergeJoinExample) on the namespaced cluster
 * ({@link NetnsCluster}: a ResourceManager, the SCache master and the job client on the control host, a NodeManager
 * with its SCache worker on each node host), Tez's shuffle against SCache switched on by configuration alone, at the
 * given node link rates: for each, a fresh cluster, its node links shaped, and {@link TezBenchClient} run on the
 * control host once per program. The links' counters are read four times a second, so that each run also reports
 * the bytes the nodes sent. Results go to {@code target/tez-netns-benchmark/}.
 */
public final class TezNetnsBenchmark {
  private static final String NAME = "tez-netns-benchmark";

  private TezNetnsBenchmark() {}

  public static void main(String[] args) {
    Options options = new Options("stock tez-examples programs on a cluster of separate daemons in network "
        + "namespaces, Tez's shuffle against SCache, at several link speeds (root)",
        new Options.Option("nodes", "3", "NodeManager hosts"),
        new Options.Option("links", "40", "node link rates in Mbit/s, comma-separated; none: unshaped (40: the paper's "
            + "network per core on two cores)"),
        new Options.Option("programs", "owc,join", "owc (OrderedWordCount), join (SortMergeJoinExample), "
            + "comma-separated; each on the same fresh cluster"),
        new Options.Option("size", "256m", "bytes of input per measured run"),
        new Options.Option("maps", "12", "input tasks"),
        new Options.Option("reduces", "6", "tasks of the first shuffle's consumer"),
        new Options.Option("repetitions", "3", "measured runs of each shuffle per link rate, alternated"),
        new Options.Option("warmup", "32m", "per program, run this much input once on each shuffle first, "
            + "unmeasured (0: none)"));
    int exit;
    try {
      if (!options.parse(args)) {
        return;
      }
      List<Integer> links = new ArrayList<>();
      for (String l : options.get("links").split(",")) {
        links.add(NetnsBenchmark.parseLink(l));
      }
      List<String> programs = List.of(options.get("programs").split(","));
      programs.forEach(TezPrograms::of);
      exit = run(options.getInt("nodes"), links, programs, List.of("--size", options.get("size"), "--maps",
          options.get("maps"), "--reduces", options.get("reduces"), "--repetitions", options.get("repetitions"),
          "--warmup", options.get("warmup")), ByteSize.parse(options.get("size")));
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      exit = 2;
    }
    System.exit(exit);
  }

  static int run(int nodes, List<Integer> links, List<String> programs, List<String> clientOptions, long size) {
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
    StringBuilder summary = new StringBuilder(speed).append(" before the clusters started\n");
    try {
      ClassPaths classPaths = ClassPaths.of(module);
      Path tezAdapter = module.resolve("target").resolve("netns-lib").resolve("tez-adapter.jar");
      for (int mbit : links) {
        String link = NetnsBenchmark.linkName(mbit);
        Path linkResults = results.resolve(link);
        console.phase(String.format(Locale.ROOT, "links %s: starting %d NodeManager hosts, the control host and the "
            + "SCache master", link, nodes));
        long t = System.nanoTime();
        try (NetnsCluster cluster = NetnsCluster.start(module.resolve("target").resolve("netns-cluster"), nodes,
            Math.max(512 * ByteSize.MIB, 2 * size), classPaths, 1, 0, Map.of())) {
          cluster.shapeNodeLinks(mbit);
          console.detail(String.format(Locale.ROOT, "ready in %.1f s: %s; logs in %s", Console.secondsSince(t),
              cluster.nodeNames(), cluster.runDir().resolve("logs")));
          for (String program : programs) {
            Path programResults = linkResults.resolve(program.trim());
            List<String> client = new ArrayList<>(List.of("--cluster", cluster.runDir().toString(), "--results",
                programResults.toString(), "--tez-adapter", tezAdapter.toString(), "--program", program.trim()));
            client.addAll(clientOptions);
            List<LinkSampler.Sample> samples;
            try (LinkSampler sampler = cluster.sampleLinks(250)) {
              int code = cluster.runClient("tez-" + link + "-" + program.trim(), TezBenchClient.class.getName(),
                  client, Duration.ofHours(2), line -> console.detail("  " + line));
              if (code != 0) {
                throw new IllegalStateException("the Tez client failed (exit " + code + "); see " + programResults);
              }
              samples = sampler.samples();
            }
            String sent = sentByRun(programResults.resolve("runs.csv"), samples, cluster.nodeNames());
            Files.writeString(programResults.resolve("network.txt"), sent, StandardCharsets.UTF_8);
            summary.append("links ").append(link).append(":\n")
                .append(Files.readString(programResults.resolve("summary.txt"), StandardCharsets.UTF_8)).append(sent);
          }
          console.phase("links " + link + ": stopping the cluster");
        }
      }
      console.finish(results, summary.toString(), started);
      return 0;
    } catch (Throwable e) {
      console.failed(e);
      if (summary.length() > 0) {
        console.print("completed so far:\n" + summary);
      }
      return 1;
    }
  }

  /** Per run of {@code runsCsv}, the bytes the nodes sent on their links while its DAG ran. */
  static String sentByRun(Path runsCsv, List<LinkSampler.Sample> samples, List<String> nodes) throws IOException {
    StringBuilder sb = new StringBuilder("  bytes the nodes sent while each DAG ran:");
    List<String> lines = Files.readAllLines(runsCsv, StandardCharsets.UTF_8);
    for (String line : lines.subList(1, lines.size())) {
      String[] f = line.split(",");
      long sent = LinkSampler.sentBetween(samples, nodes, Long.parseLong(f[2]), Long.parseLong(f[3]));
      sb.append(String.format(Locale.ROOT, " %s %s", f[1], ByteSize.format(sent))).append(',');
    }
    sb.setLength(sb.length() - 1);
    return sb.append('\n').toString();
  }
}
