package org.scache.benchmarks.hadoop;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.scache.benchmarks.harness.ByteSize;
import org.scache.benchmarks.harness.Stats;
import org.scache.benchmarks.harness.chart.RatioByLinkChart;
import org.scache.benchmarks.harness.netns.LinkSampler;
import org.scache.hadoop.frq.FrqFit;
import org.scache.hadoop.frq.FrqJob;

/**
 * The FRQ model ({@link FrqReport}) for the namespaced cluster's runs. The shuffle speed {@code V_shuffle}
 * is what the links showed: the fastest the nodes sent together over {@value #WINDOW_MS} ms during either
 * job of a repetition, counted in shuffle bytes (of a shuffle spread evenly over {@code n} nodes, a share
 * {@code (n − 1) / n} crosses a link, so the links' rate is multiplied by {@code n / (n − 1)}).
 */
final class NetnsFrq {
  static final long WINDOW_MS = 5_000;

  private NetnsFrq() {}

  /** One repetition's two jobs, fitted. */
  record Pair(long size, int repetition, FrqFit hadoop, FrqFit scache) {}

  static List<Pair> fit(Path runsCsv, List<LinkSampler.Sample> samples, List<String> nodes) throws IOException {
    List<String> lines = Files.readAllLines(runsCsv, StandardCharsets.UTF_8);
    List<String> header = Arrays.asList(lines.get(0).split(","));
    Map<String, FrqJob[]> runs = new TreeMap<>();
    Map<String, Double> peak = new TreeMap<>();
    for (String line : lines.subList(1, lines.size())) {
      if (line.isBlank()) {
        continue;
      }
      String[] f = line.split(",");
      FrqJob run = FrqRuns.ofCsv(header, f);
      String key = f[header.indexOf("size_bytes")] + "," + f[header.indexOf("repetition")];
      runs.computeIfAbsent(key, k -> new FrqJob[2])[run.shuffle().ordinal()] = run;
      double rate = LinkSampler.peakSendRate(samples, nodes, Long.parseLong(f[header.indexOf("submit_ms")]),
          Long.parseLong(f[header.indexOf("finish_ms")]), WINDOW_MS);
      peak.merge(key, rate, Math::max);
    }
    double crossing = nodes.size() > 1 ? nodes.size() / (nodes.size() - 1.0) : 1;
    List<Pair> pairs = new ArrayList<>();
    runs.forEach((key, pair) -> {
      if (pair[0] == null || pair[1] == null) {
        return;
      }
      double v = peak.get(key) > 0 ? peak.get(key) * crossing : Double.POSITIVE_INFINITY;
      String[] k = key.split(",");
      pairs.add(new Pair(Long.parseLong(k[0]), Integer.parseInt(k[1]), FrqReport.fit(pair[0], v),
          FrqReport.fit(pair[1], v)));
    });
    return pairs;
  }

  /** The sweep chart's point for one link rate: each repetition's job ratio at {@code size}, and the FRQ's. */
  static RatioByLinkChart.Point chartPoint(String link, List<Pair> pairs, long size) {
    List<Pair> of = pairs.stream().filter(p -> p.size() == size).toList();
    return new RatioByLinkChart.Point(link, of.stream().map(p -> p.scache().job().jobSeconds()
        / p.hadoop().job().jobSeconds()).toList(), Stats.median(of.stream()
        .map(p -> FrqReport.predictedRatio(p.hadoop())).toList()));
  }

  static String format(List<Pair> pairs) {
    StringBuilder sb = new StringBuilder();
    for (Pair p : pairs) {
      sb.append(String.format(Locale.ROOT, "%s, repetition %d: ", ByteSize.format(p.size()), p.repetition()))
          .append(FrqReport.format(p.hadoop(), p.scache()));
    }
    if (!pairs.isEmpty()) {
      sb.append(String.format(Locale.ROOT, "FRQ prediction error, median of |predicted - measured| / measured: "
          + "Hadoop's shuffle %.1f%%, SCache %.1f%% (the paper: within 10%%); the paper's model, without the launch "
          + "term: %.1f%%, %.1f%%%n",
          100 * Stats.median(pairs.stream().map(p -> Math.abs(p.hadoop().error())).toList()),
          100 * Stats.median(pairs.stream().map(p -> Math.abs(p.scache().error())).toList()),
          100 * Stats.median(pairs.stream().map(p -> Math.abs(p.hadoop().paperModelError())).toList()),
          100 * Stats.median(pairs.stream().map(p -> Math.abs(p.scache().paperModelError())).toList())));
      sb.append(FrqCalibration.format(pairs));
    }
    return sb.toString();
  }
}
