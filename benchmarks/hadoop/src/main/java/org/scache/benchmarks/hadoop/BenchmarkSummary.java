package org.scache.benchmarks.hadoop;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.scache.benchmarks.harness.ByteSize;
import org.scache.benchmarks.harness.Stats;
import org.scache.hadoop.frq.Shuffle;

/**
 * The benchmark's results: per size, the medians over the repetitions, next to the targets, and every
 * run as CSV.
 */
final class BenchmarkSummary {
  /** SCache's job time at most this times Hadoop's where the links limit the shuffle (the paper measured 0.85). */
  static final double JOB_TARGET = 0.85;
  /**
   * SCache's shuffle wait per reducer at most this times Hadoop's. The paper measured 0.11 of the shuffle
   * overhead; a reducer's wait here runs from its container's start, so it includes the JVM's start, which
   * SCache does not shorten.
   */
  static final double SHUFFLE_WAIT_TARGET = 0.30;

  private BenchmarkSummary() {}

  static String format(List<RunPair> pairs) {
    Map<Long, List<RunPair>> bySize = new LinkedHashMap<>();
    for (RunPair p : pairs) {
      bySize.computeIfAbsent(p.size(), k -> new ArrayList<>()).add(p);
    }
    StringBuilder sb = new StringBuilder();
    sb.append(String.format(Locale.ROOT, "%-8s %4s %11s %11s %7s %9s %9s %9s %9s %11s %11s %9s%n", "size", "reps",
        "job Hadoop", "job SCache", "job", "reduce", "shuffle", "after JVM", "shuffle", "map disk", "map disk",
        "reducers"));
    sb.append(String.format(Locale.ROOT, "%-8s %4s %11s %11s %7s %9s %9s %9s %9s %11s %11s %9s%n", "", "", "", "",
        "ratio", "stage r.", "wait r.", "wait r.", "itself r.", "Hadoop", "SCache", "placed"));
    for (Map.Entry<Long, List<RunPair>> e : bySize.entrySet()) {
      List<RunPair> runs = e.getValue();
      sb.append(String.format(Locale.ROOT, "%-8s %4d %9.1f s %9.1f s %7.2f %9.2f %9.2f %9.2f %9.2f %11s %11s %9s%n",
          ByteSize.format(e.getKey()), runs.size(),
          median(runs, p -> p.hadoop().job().jobSeconds()), median(runs, p -> p.scache().job().jobSeconds()),
          median(runs, RunPair::jobRatio), median(runs, RunPair::reduceStageRatio),
          median(runs, RunPair::shuffleWaitRatio), median(runs, RunPair::shuffleAfterJvmRatio),
          median(runs, RunPair::shuffleItselfRatio),
          ByteSize.format((long) median(runs, p -> p.hadoop().job().mapFileBytesWritten())),
          ByteSize.format((long) median(runs, p -> p.scache().job().mapFileBytesWritten())), placed(runs)));
    }
    sb.append(String.format(Locale.ROOT, "%-8s %4s %11s %11s %7s %9s %9s%n", "target", "", "", "",
        String.format(Locale.ROOT, "<=%.2f", JOB_TARGET), "",
        String.format(Locale.ROOT, "<=%.2f", SHUFFLE_WAIT_TARGET)));
    sb.append(String.format(Locale.ROOT, "%-8s %4s %11s %11s %7s %9s %9s%n", "paper", "", "", "", "0.85", "", "0.11"));
    sb.append("(paper: job time -15%, shuffle overhead -89%; ratios are SCache / Hadoop, medians of the per-repetition "
        + "ratios; shuffle wait: a reducer's start to its shuffle's end; after JVM: from its JVM's first log line; "
        + "shuffle itself: from its beginning in the task, after the JVM and the task's set-up)\n");
    for (Map.Entry<Long, List<RunPair>> e : bySize.entrySet()) {
      double job = median(e.getValue(), RunPair::jobRatio);
      double wait = median(e.getValue(), RunPair::shuffleWaitRatio);
      sb.append(String.format(Locale.ROOT, "%-8s job time target %s (%.2f), shuffle wait target %s (%.2f)%n",
          ByteSize.format(e.getKey()), job <= JOB_TARGET ? "met" : "NOT met", job,
          wait <= SHUFFLE_WAIT_TARGET ? "met" : "NOT met", wait));
    }
    for (RunPair p : pairs) {
      if (p.machineSpeedSpread() > RunPair.STEADY_MACHINE) {
        sb.append(String.format(Locale.ROOT, "%-8s repetition %d: the machine's speed changed by %.0f%% during the "
            + "pair (%s); its ratio tells of the machine as much as of the shuffles%n", ByteSize.format(p.size()),
            p.repetition(), 100 * (p.machineSpeedSpread() - 1), speeds(p)));
      }
    }
    sb.append(cpu(bySize));
    sb.append(firstMapWave(bySize));
    return sb.toString();
  }

  /**
   * The first map wave's maps (those started before any map ended), medians over the repetitions of their mean
   * time and CPU: compared across link rates, whether maps slow down on slower links before any shuffle data of
   * theirs is sent.
   */
  static String firstMapWave(Map<Long, List<RunPair>> bySize) {
    StringBuilder sb = new StringBuilder("first map wave (the maps started before any map ended), medians of their "
        + "mean time and own CPU:\n");
    for (Map.Entry<Long, List<RunPair>> e : bySize.entrySet()) {
      for (Shuffle shuffle : Shuffle.values()) {
        List<RunPair> runs = e.getValue();
        sb.append(String.format(Locale.ROOT, "  %-8s %-21s %3.0f maps, %6.1f s a map, %5.1f s of CPU%n",
            ByteSize.format(e.getKey()), shuffle.label(), median(runs, p -> p.job(shuffle).firstMapWave().maps()),
            median(runs, p -> p.job(shuffle).firstMapWave().meanSeconds()),
            median(runs, p -> p.job(shuffle).firstMapWave().meanCpuSeconds())));
      }
    }
    return sb.toString();
  }

  /** Every run, one CSV line each. */
  static String csv(List<RunPair> pairs) {
    StringBuilder sb = new StringBuilder("size_bytes,repetition,shuffle,ran_first,job_id,job_s,map_stage_s,"
        + "reduce_stage_s,shuffle_wait_median_s,shuffle_wait_max_s,map_file_bytes_written,reduces_on_scheduled_node,"
        + "reduces_elsewhere,local_read_bytes,remote_read_bytes,prefetched_bytes,spilled_bytes,submit_ms,"
        + "last_map_finish_ms,finish_ms,shuffle_after_jvm_median_s,map_cpu_s,reduce_cpu_s,machine_cpu_s,"
        + "shuffle_itself_median_s," + FrqRuns.CSV_COLUMNS + ",first_wave_maps,first_wave_map_s,first_wave_map_cpu_s,"
        + "machine_speed_before_ms,machine_speed_after_ms\n");
    for (RunPair p : pairs) {
      for (TerasortRunner.SortRun r : List.of(p.hadoop(), p.scache())) {
        JobFigures j = r.job();
        WorkerTraffic w = r.workers();
        boolean first = (j.shuffle() == Shuffle.HADOOP) == p.hadoopFirst();
        sb.append(String.format(Locale.ROOT,
            "%d,%d,%s,%s,%s,%.3f,%.3f,%.3f,%.3f,%.3f,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,"
            + "%.3f,%.3f,%.3f,%.3f,%.3f,%s,%d,%.3f,%.3f,%.0f,%.0f%n",
            p.size(),
            p.repetition(), j.shuffle(), first, j.id(), j.jobSeconds(), j.mapStageSeconds(), j.reduceStageSeconds(),
            j.medianShuffleWaitSeconds(), j.maxShuffleWaitSeconds(), j.mapFileBytesWritten(),
            j.reducesOnScheduledNode(), j.reducesElsewhere(), w.localReadBytes(), w.remoteReadBytes(),
            w.prefetchedBytes(), w.spilledBytes(), j.submit(), j.lastMapFinish(), j.finish(),
            j.medianShuffleAfterJvmSeconds(), j.cpu().mapSeconds(), j.cpu().reduceSeconds(),
            j.cpu().machineSeconds(), j.medianShuffleItselfSeconds(), FrqRuns.csvFields(FrqRuns.of(j, p.size())),
            j.firstMapWave().maps(), j.firstMapWave().meanSeconds(), j.firstMapWave().meanCpuSeconds(),
            r.speedBefore().wallMs(), r.speedAfter().wallMs()));
      }
    }
    return sb.toString();
  }

  /**
   * CPU seconds, medians: the map tasks', the reduce tasks' and the whole machine's while the job ran
   * (daemons, workers, application master and client included); the machine's busy share of its
   * cores over the job tells whether the job was bound by CPU.
   */
  static String cpu(Map<Long, List<RunPair>> bySize) {
    int cores = Runtime.getRuntime().availableProcessors();
    StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%-32s %9s %8s %8s %9s%n",
        "CPU seconds, medians (" + cores + " cores):", "map tasks", "reduces", "machine", "busy"));
    for (Map.Entry<Long, List<RunPair>> e : bySize.entrySet()) {
      for (Shuffle shuffle : Shuffle.values()) {
        List<RunPair> runs = e.getValue();
        sb.append(String.format(Locale.ROOT, "  %-8s %-21s %9.1f %8.1f %8.1f %8.0f%%%n", ByteSize.format(e.getKey()),
            shuffle.label(), median(runs, p -> p.job(shuffle).cpu().mapSeconds()),
            median(runs, p -> p.job(shuffle).cpu().reduceSeconds()),
            median(runs, p -> p.job(shuffle).cpu().machineSeconds()),
            100 * median(runs, p -> p.job(shuffle).cpu().machineSeconds() / (cores * p.job(shuffle).jobSeconds()))));
      }
    }
    return sb.toString();
  }

  /** One repetition in a line, as it finishes. */
  static String line(RunPair p) {
    JobFigures h = p.hadoop().job();
    JobFigures s = p.scache().job();
    return String.format(Locale.ROOT, "repetition %d (%s first): job %.1f s vs %.1f s (%.2f), reduce stage %.1f s vs "
        + "%.1f s (%.2f), median shuffle wait %.1f s vs %.1f s (%.2f), after the JVM is up %.2f s vs %.2f s; a "
            + "reducer's "
        + "launch (its start to its shuffle's beginning) %.2f s vs %.2f s, its shuffle from its beginning %.2f s vs "
        + "%.2f s (%.2f); reducers placed %s; "
        + "machine speed %s",
        p.repetition(), p.hadoopFirst() ? "Hadoop" : "SCache", h.jobSeconds(), s.jobSeconds(), p.jobRatio(),
        h.reduceStageSeconds(), s.reduceStageSeconds(), p.reduceStageRatio(), h.medianShuffleWaitSeconds(),
        s.medianShuffleWaitSeconds(), p.shuffleWaitRatio(), h.medianShuffleAfterJvmSeconds(),
        s.medianShuffleAfterJvmSeconds(), h.medianLaunchSeconds(), s.medianLaunchSeconds(),
        h.medianShuffleItselfSeconds(), s.medianShuffleItselfSeconds(), p.shuffleItselfRatio(), PairReport.placed(s),
        speeds(p));
  }

  /** The machine's speed before and after each job of {@code p} (the sort's milliseconds; lower is faster). */
  static String speeds(RunPair p) {
    return String.format(Locale.ROOT, "Hadoop's job %.0f-%.0f ms, SCache's %.0f-%.0f ms", p.hadoop().speedBefore()
        .wallMs(), p.hadoop().speedAfter().wallMs(), p.scache().speedBefore().wallMs(), p.scache().speedAfter()
        .wallMs());
  }

  private static String placed(List<RunPair> runs) {
    double f = median(runs, p -> p.scache().job().placedFraction());
    return Double.isNaN(f) ? "n/a" : String.format(Locale.ROOT, "%.0f%%", 100 * f);
  }

  private static double median(List<RunPair> runs, ToDoubleFunction<RunPair> f) {
    List<Double> values = new ArrayList<>();
    for (RunPair p : runs) {
      values.add(f.applyAsDouble(p));
    }
    return Stats.median(values);
  }
}
