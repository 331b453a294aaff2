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
import org.scache.benchmarks.harness.chart.LinkRateChart;
import org.scache.benchmarks.harness.netns.LinkSampler;
import org.scache.hadoop.frq.Shuffle;

/**
 * One TeraSort run of the namespaced cluster with the bytes its nodes sent over their links during its
 * map stage (submission to the last map's end) and after it (to the job's end): with SCache the shuffle
 * data should cross the network in the first, with Hadoop's shuffle in the second.
 */
record NetworkPhases(long size, int repetition, Shuffle shuffle, String jobId, long submit, long lastMapFinish,
    long finish, long sentDuringMaps, long sentAfterMaps) {

  /** The runs of {@code runsCsv} (TerasortBenchmark's), with their bytes from {@code samples}. */
  static List<NetworkPhases> of(Path runsCsv, List<LinkSampler.Sample> samples, List<String> nodes)
      throws IOException {
    List<String> lines = Files.readAllLines(runsCsv, StandardCharsets.UTF_8);
    List<String> header = Arrays.asList(lines.get(0).split(","));
    List<NetworkPhases> out = new ArrayList<>();
    for (String line : lines.subList(1, lines.size())) {
      if (line.isBlank()) {
        continue;
      }
      String[] f = line.split(",");
      long submit = Long.parseLong(f[header.indexOf("submit_ms")]);
      long lastMap = Long.parseLong(f[header.indexOf("last_map_finish_ms")]);
      long finish = Long.parseLong(f[header.indexOf("finish_ms")]);
      out.add(new NetworkPhases(Long.parseLong(f[header.indexOf("size_bytes")]),
          Integer.parseInt(f[header.indexOf("repetition")]), Shuffle.valueOf(f[header.indexOf("shuffle")]),
          f[header.indexOf("job_id")], submit, lastMap, finish,
          LinkSampler.sentBetween(samples, nodes, submit, lastMap),
          LinkSampler.sentBetween(samples, nodes, lastMap, finish)));
    }
    return out;
  }

  /** The last repetition of {@code size}, one chart panel per shuffle; empty when there is none. */
  static List<LinkRateChart.Run> lastPair(List<NetworkPhases> runs, long size) {
    int lastRep = runs.stream().filter(r -> r.size == size).mapToInt(NetworkPhases::repetition).max().orElse(-1);
    List<LinkRateChart.Run> pair = new ArrayList<>();
    for (Shuffle s : Shuffle.values()) {
      runs.stream().filter(r -> r.size == size && r.repetition == lastRep && r.shuffle == s).findFirst()
          .ifPresent(r -> pair.add(new LinkRateChart.Run(s.label() + ", repetition " + lastRep, r.submit,
          r.lastMapFinish,
              r.finish, r.sentDuringMaps, r.sentAfterMaps)));
    }
    return pair;
  }

  double fractionDuringMaps() {
    long total = sentDuringMaps + sentAfterMaps;
    return total == 0 ? 0 : (double) sentDuringMaps / total;
  }

  static String csv(List<NetworkPhases> runs) {
    StringBuilder sb = new StringBuilder("size_bytes,repetition,shuffle,job_id,sent_during_maps_bytes,"
        + "sent_after_maps_bytes\n");
    for (NetworkPhases r : runs) {
      sb.append(String.format(Locale.ROOT, "%d,%d,%s,%s,%d,%d%n", r.size, r.repetition, r.shuffle, r.jobId,
          r.sentDuringMaps, r.sentAfterMaps));
    }
    return sb.toString();
  }

  /** Per size, the medians of the bytes the nodes sent during and after the map stage, for both shuffles. */
  static String format(List<NetworkPhases> runs) {
    Map<Long, List<NetworkPhases>> bySize = new TreeMap<>();
    runs.forEach(r -> bySize.computeIfAbsent(r.size, k -> new ArrayList<>()).add(r));
    StringBuilder sb = new StringBuilder("network bytes the nodes sent, medians:            during maps   after maps"
        + "   share during maps\n");
    bySize.forEach((size, list) -> {
      for (Shuffle s : Shuffle.values()) {
        List<NetworkPhases> of = list.stream().filter(r -> r.shuffle == s).toList();
        if (of.isEmpty()) {
          continue;
        }
        sb.append(String.format(Locale.ROOT, "  %-8s %-16s %30s %12s %15.0f%%%n", ByteSize.format(size), s.label(),
            ByteSize.format(median(of.stream().mapToLong(NetworkPhases::sentDuringMaps).toArray())),
            ByteSize.format(median(of.stream().mapToLong(NetworkPhases::sentAfterMaps).toArray())),
            100 * median(of.stream().mapToDouble(NetworkPhases::fractionDuringMaps).toArray())));
      }
    });
    return sb.toString();
  }

  private static long median(long[] v) {
    long[] s = v.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }

  private static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }
}
