package org.scache.benchmarks.hadoop;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.scache.benchmarks.harness.ByteSize;
import org.scache.benchmarks.harness.Stats;

/** The demo's report: one TeraSort on Hadoop's shuffle and one through SCache, side by side. */
final class PairReport {
  private PairReport() {}

  static String format(TerasortRunner.SortRun hadoop, TerasortRunner.SortRun scache) {
    JobFigures h = hadoop.job();
    JobFigures s = scache.job();
    StringBuilder sb = new StringBuilder();
    sb.append(String.format(Locale.ROOT, "%-44s %16s %16s %15s%n", "", "Hadoop shuffle", "SCache", "SCache/Hadoop"));
    row(sb, "job time (submission to finish)", h.jobSeconds(), s.jobSeconds());
    row(sb, "map stage", h.mapStageSeconds(), s.mapStageSeconds());
    row(sb, "reduce stage (last map's end to job's end)", h.reduceStageSeconds(), s.reduceStageSeconds());
    row(sb, "shuffle wait per reducer, median", h.medianShuffleWaitSeconds(), s.medianShuffleWaitSeconds());
    row(sb, "shuffle wait per reducer, longest", h.maxShuffleWaitSeconds(), s.maxShuffleWaitSeconds());
    // the reducers' JVM starts come from their container logs: rows left out where none was found
    boolean afterJvm = !h.shuffleAfterJvmSeconds().isEmpty() && !s.shuffleAfterJvmSeconds().isEmpty();
    if (afterJvm) {
      row(sb, "shuffle after the reducer's JVM is up, median", h.medianShuffleAfterJvmSeconds(),
          s.medianShuffleAfterJvmSeconds());
    }
    if (!Double.isNaN(h.medianLaunchSeconds()) && !Double.isNaN(s.medianLaunchSeconds())) {
      row(sb, "reducer's launch, to its shuffle's beginning", h.medianLaunchSeconds(), s.medianLaunchSeconds());
      row(sb, "shuffle from its beginning in the task", h.medianShuffleItselfSeconds(), s.medianShuffleItselfSeconds());
    }
    row(sb, "CPU of the map tasks", h.cpu().mapSeconds(), s.cpu().mapSeconds());
    row(sb, "CPU of the reduce tasks", h.cpu().reduceSeconds(), s.cpu().reduceSeconds());
    row(sb, "CPU of the machine while the job ran", h.cpu().machineSeconds(), s.cpu().machineSeconds());
    row(sb, "  of which outside the tasks", h.cpu().outsideTasksSeconds(), s.cpu().outsideTasksSeconds());
    sb.append(String.format(Locale.ROOT, "%-44s %16s %16s %15s%n", "map output written to local disk",
        ByteSize.format(h.mapFileBytesWritten()), ByteSize.format(s.mapFileBytesWritten()),
        ratio(s.mapFileBytesWritten(), h.mapFileBytesWritten())));
    sb.append(String.format(Locale.ROOT, "%-44s %16s %16s%n", "reducers on the node holding their data", "-",
        placed(s)));
    sb.append(String.format(Locale.ROOT, "%nshuffle wait of each reducer in seconds, from its start to its shuffle's "
        + "end:%n"));
    sb.append("  Hadoop shuffle: ").append(list(h.shuffleWaitSeconds())).append('\n');
    sb.append("  SCache:         ").append(list(s.shuffleWaitSeconds())).append('\n');
    if (afterJvm) {
      sb.append(String.format(Locale.ROOT, "the same from the reducer's JVM's first log line:%n"));
      sb.append("  Hadoop shuffle: ").append(list(h.shuffleAfterJvmSeconds())).append('\n');
      sb.append("  SCache:         ").append(list(s.shuffleAfterJvmSeconds())).append('\n');
    }
    WorkerTraffic w = scache.workers();
    sb.append(String.format(Locale.ROOT, "SCache: maps put %s, reduces read %s (%s from the worker on their node, "
        + "%s from other workers); workers prefetched %s, spilled %s%n", ByteSize.format(s.scacheBytesPut()),
        ByteSize.format(s.scacheBytesRead()), ByteSize.format(w.localReadBytes()), ByteSize.format(w.remoteReadBytes()),
        ByteSize.format(w.prefetchedBytes()), ByteSize.format(w.spilledBytes())));
    return sb.toString();
  }

  /** "6 of 6 (100%)", or "n/a" when the application master counted no placement. */
  static String placed(JobFigures j) {
    long all = j.reducesOnScheduledNode() + j.reducesElsewhere();
    return all == 0 ? "n/a" : String.format(Locale.ROOT, "%d of %d (%.0f%%)", j.reducesOnScheduledNode(), all,
        100.0 * j.reducesOnScheduledNode() / all);
  }

  private static void row(StringBuilder sb, String what, double hadoop, double scache) {
    sb.append(String.format(Locale.ROOT, "%-44s %14.1f s %14.1f s %15s%n", what, hadoop, scache,
        ratio(scache, hadoop)));
  }

  static String ratio(double a, double b) {
    double r = Stats.ratio(a, b);
    return Double.isNaN(r) ? "n/a" : String.format(Locale.ROOT, "%.2f", r);
  }

  private static String list(List<Double> values) {
    return values.stream().map(v -> String.format(Locale.ROOT, "%.1f", v)).collect(Collectors.joining(" "));
  }
}
