package org.scache.benchmarks.harness.netns;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.scache.benchmarks.harness.Stats;

/**
 * The CPU each kind of process used in one run's map stage (the job's start to its last map's end) and its
 * reduce stage (from there to the job's end), from a {@link ProcessCpuSampler}; {@link #table} sets the
 * runs of two shuffles side by side.
 */
public record StageCpu(String shuffle, Map<ProcessCpuSampler.Use, Double> maps,
    Map<ProcessCpuSampler.Use, Double> reduces) {

  public static StageCpu of(ProcessCpuSampler sampler, String shuffle, long start, long mapEnd, long end) {
    return new StageCpu(shuffle, sampler.secondsBetween(start, mapEnd), sampler.secondsBetween(mapEnd, end));
  }

  /**
   * Per process, the median CPU seconds of each shuffle's runs in each stage, with the JIT compilers' share in
   * parentheses; every line begins with {@code prefix}.
   */
  public static String table(String prefix, List<String> shuffles, List<StageCpu> runs) {
    StringBuilder sb = new StringBuilder();
    List<String> columns = new ArrayList<>();
    for (String stage : List.of("maps", "reduces")) {
      shuffles.forEach(s -> columns.add(stage + ": " + s));
    }
    sb.append(String.format(Locale.ROOT, "%s%-28s", prefix, "CPU s (of which JIT)"));
    columns.forEach(c -> sb.append(String.format(Locale.ROOT, " %-16s", c)));
    sb.append('\n');
    List<String> processes = runs.stream().flatMap(r -> Stream.concat(r.maps.keySet().stream(),
        r.reduces.keySet().stream())).map(ProcessCpuSampler.Use::role).distinct().sorted().toList();
    for (String process : processes) {
      sb.append(String.format(Locale.ROOT, "%s%-28s", prefix, process));
      for (Function<StageCpu, Map<ProcessCpuSampler.Use, Double>> stage
          : List.<Function<StageCpu, Map<ProcessCpuSampler.Use, Double>>>of(StageCpu::maps, StageCpu::reduces)) {
        for (String shuffle : shuffles) {
          List<StageCpu> of = runs.stream().filter(r -> r.shuffle.equals(shuffle)).toList();
          double all = Stats.median(of.stream().map(r -> ProcessCpuSampler.seconds(stage.apply(r), process, null))
              .toList());
          double jit = Stats.median(of.stream().map(r -> ProcessCpuSampler.seconds(stage.apply(r), process,
              ProcessCpuSampler.Part.JIT)).toList());
          sb.append(String.format(Locale.ROOT, " %-16s", String.format(Locale.ROOT, "%.1f (%.1f)", all, jit)));
        }
      }
      sb.append('\n');
    }
    return sb.toString();
  }

  /** CSV lines {@code prefix,stage,process,part,cpu_s}, one per process and part of each stage. */
  public String csv(String prefix) {
    StringBuilder sb = new StringBuilder();
    for (String stage : List.of("map", "reduce")) {
      (stage.equals("map") ? maps : reduces).forEach((use, seconds) -> sb.append(prefix).append(',').append(stage)
          .append(',').append(use.role()).append(',').append(use.part().name().toLowerCase(Locale.ROOT)).append(',')
          .append(String.format(Locale.ROOT, "%.2f", seconds)).append('\n'));
    }
    return sb.toString();
  }
}
