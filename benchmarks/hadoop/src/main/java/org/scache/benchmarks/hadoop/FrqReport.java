package org.scache.benchmarks.hadoop;

import java.util.List;
import java.util.Locale;
import org.scache.benchmarks.harness.ByteSize;
import org.scache.hadoop.frq.FrqFit;
import org.scache.hadoop.frq.FrqJob;
import org.scache.hadoop.frq.FrqModel;
import org.scache.hadoop.frq.Shuffle;

/**
 * The FRQ model's prediction beside the measurement, for one job on Hadoop's shuffle and one through
 * SCache: each fitted from its own history (with the shuffle speed its network showed), and SCache's
 * time predicted from the Hadoop job's parameters alone, which is what a user can know before
 * installing SCache.
 */
final class FrqReport {
  /** What the model says of a cluster whose shuffle no link limits, as the demo's. */
  static final String NO_LINK_LIMIT = """
        Here the shuffle crosses loopback inside one JVM, so no link limits it: the model's shuffle takes no time,
        and it predicts the same job time for both shuffles. On this machine SCache can be faster only by costing
        less CPU. With slow links (the paper's ~75 Mbit/s per core) the namespaced cluster shows the difference:
        NetnsBenchmark in docs/benchmarks.md, --links 40.
        """;

  private FrqReport() {}

  static FrqFit fit(FrqJob job, double shuffleSpeed) {
    return FrqFit.of(job, shuffleSpeed);
  }

  static String format(FrqFit hadoop, FrqFit scache) {
    StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "FRQ model (paper Section V), each job fitted "
        + "from its own history; K = %.1f on Hadoop's shuffle, %.1f with SCache; T_job adds the job's measured start "
        + "(submission to the first map), which the model leaves out; launch: rounds of reduces launched after the "
        + "maps x T_launch (a reduce's start to its shuffle's beginning, median), a term the paper's model has not "
        + "(its error in the last column):%n", FrqModel.K_HADOOP, FrqModel.K_SCACHE));
    sb.append(String.format(Locale.ROOT, "  %-15s %9s %5s %3s %10s %10s %11s %5s %7s %7s %9s %8s %10s %8s %9s %9s "
        + "%7s %7s%n", "", "D", "R", "N", "V_map", "V_reduce", "V_shuffle", "case", "start", "T_map", "T_shuffle",
        "overlap",
        "launch", "T_reduce", "T_job", "measured", "error", "paper's"));
    for (FrqFit f : List.of(hadoop, scache)) {
      FrqModel m = f.model();
      Shuffle s = f.job().shuffle();
      sb.append(String.format(Locale.ROOT, "  %-15s %9s %5.2f %3.0f %10s %10s %11s %5s %5.1f s %5.1f s %7.1f s %6.1f s "
          + "%1d x %4.1f s %6.1f s %7.1f s %7.1f s %+6.1f%% %+6.1f%%%n", s.label(),
          ByteSize.format((long) m.inputBytes()), m.conversionRate(), m.mapWaves(), rate(m.mapSpeed()),
              rate(m.reduceSpeed()), rate(m.shuffleSpeed()),
          s == Shuffle.SCACHE ? m.scacheCase().figure() : "9b", f.job().startSeconds(), m.mapSeconds(),
          m.shuffleSeconds(), m.overlapSeconds(s), m.launchRounds(), m.reduceLaunchSeconds(), m.reduceSeconds(s),
          f.predictedSeconds(), f.job().jobSeconds(), 100 * f.error(), 100 * f.paperModelError()));
    }
    sb.append(String.format(Locale.ROOT, "  from the Hadoop job alone, SCache should take %.1f s: SCache/Hadoop "
        + "predicted %.2f, measured %.2f%n", hadoop.predictedSeconds(Shuffle.SCACHE), predictedRatio(hadoop),
        scache.job().jobSeconds() / hadoop.job().jobSeconds()));
    return sb.toString();
  }

  /**
   * What the launch term adds where no link limits the shuffle: there the paper's reduce phase is the
   * reduces' own work, while the measured reduce stage also holds their launch (container, JVM, task set-up).
   */
  static String launchTerm(FrqFit hadoop, JobFigures hadoopJob, FrqFit scache, JobFigures scacheJob) {
    return String.format(Locale.ROOT, "The paper's reduce phase is the reduces' work and the shuffle they wait for, "
        + "none here (%.1f s and %.1f s); the measured reduce stages%n(%.1f s and %.1f s) also hold the reduces' "
        + "launch, container, JVM and task set-up (%.1f s and %.1f s from a reducer's start to its%nshuffle's "
        + "beginning, median), which the launch term adds: the paper's model is off by %+.1f%% and %+.1f%% here, "
        + "with it %+.1f%% and %+.1f%%.%n",
        hadoop.model().withoutLaunch().reduceSeconds(Shuffle.HADOOP),
        scache.model().withoutLaunch().reduceSeconds(Shuffle.SCACHE), hadoopJob.reduceStageSeconds(),
        scacheJob.reduceStageSeconds(), hadoop.job().reduceLaunchSeconds(), scache.job().reduceLaunchSeconds(),
        100 * hadoop.paperModelError(), 100 * scache.paperModelError(), 100 * hadoop.error(), 100 * scache.error());
  }

  /** SCache's job time over Hadoop's as the model predicts it from the Hadoop job alone. */
  static double predictedRatio(FrqFit hadoop) {
    return hadoop.predictedRatio();
  }

  /** The same with {@code kHadoop} and {@code kScache} for the paper's K. */
  static double predictedRatio(FrqFit hadoop, double kHadoop, double kScache) {
    return hadoop.predictedRatio(kHadoop, kScache);
  }

  static String rate(double bytesPerSecond) {
    return Double.isInfinite(bytesPerSecond) ? "no limit" : ByteSize.format((long) bytesPerSecond) + "/s";
  }
}
