package org.scache.benchmarks.hadoop;

import java.util.List;
import java.util.Locale;
import org.scache.benchmarks.harness.ByteSize;

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

  /** One job fitted, and what the model says of it. */
  record Fitted(FrqRun run, FrqModel model) {
    /** The job's measured start, and the model's job time after it. */
    double predictedSeconds() {
      return predictedSeconds(run.shuffle());
    }

    /** What the model says this job would take on {@code shuffle}, its measured start included. */
    double predictedSeconds(Shuffle shuffle) {
      return run.startSeconds() + model.jobSeconds(shuffle);
    }

    /** What the model says this job would take on {@code shuffle} with {@code k} for K, its measured start included. */
    double predictedSeconds(Shuffle shuffle, double k) {
      return run.startSeconds() + model.jobSeconds(shuffle, k);
    }

    /** (predicted − measured) / measured. */
    double error() {
      return (predictedSeconds() - run.jobSeconds()) / run.jobSeconds();
    }

    /** (predicted − measured) / measured, with {@code k} for K. */
    double error(double k) {
      return (predictedSeconds(run.shuffle(), k) - run.jobSeconds()) / run.jobSeconds();
    }

    /** (predicted − measured) / measured in the paper's model, without the launch term. */
    double paperModelError() {
      return (run.startSeconds() + model.withoutLaunch().jobSeconds(run.shuffle()) - run.jobSeconds())
          / run.jobSeconds();
    }

    /**
     * The K this job showed: how much of the model's overlap ({@code T_P_shuffle}) its reduce phase waited
     * beyond the reduces' launch and own work,
     * {@code (measured − start − T_map − rounds × T_launch − D × R / V_reduce) / T_P_shuffle}.
     */
    double observedK() {
      return waitedSeconds() / model.overlapSeconds(run.shuffle());
    }

    /** How long the job's reduce phase took beyond the reduces' launch and own work. */
    double waitedSeconds() {
      return run.jobSeconds() - run.startSeconds() - model.mapSeconds() - model.launchSeconds()
          - model.reduceWorkSeconds();
    }
  }

  static Fitted fit(FrqRun run, double shuffleSpeed) {
    return new Fitted(run, run.fit(shuffleSpeed));
  }

  static String format(Fitted hadoop, Fitted scache) {
    StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "FRQ model (paper Section V), each job fitted "
        + "from its own history; K = %.1f on Hadoop's shuffle, %.1f with SCache; T_job adds the job's measured start "
        + "(submission to the first map), which the model leaves out; launch: rounds of reduces launched after the "
        + "maps x T_launch (a reduce's start to its shuffle's beginning, median), a term the paper's model has not "
        + "(its error in the last column):%n", FrqModel.K_HADOOP, FrqModel.K_SCACHE));
    sb.append(String.format(Locale.ROOT, "  %-15s %9s %5s %3s %10s %10s %11s %5s %7s %7s %9s %8s %10s %8s %9s %9s "
        + "%7s %7s%n", "", "D", "R", "N", "V_map", "V_reduce", "V_shuffle", "case", "start", "T_map", "T_shuffle", "overlap",
        "launch", "T_reduce", "T_job", "measured", "error", "paper's"));
    for (Fitted f : List.of(hadoop, scache)) {
      FrqModel m = f.model();
      Shuffle s = f.run().shuffle();
      sb.append(String.format(Locale.ROOT, "  %-15s %9s %5.2f %3.0f %10s %10s %11s %5s %5.1f s %5.1f s %7.1f s %6.1f s "
          + "%1d x %4.1f s %6.1f s %7.1f s %7.1f s %+6.1f%% %+6.1f%%%n", s.label(),
          ByteSize.format((long) m.inputBytes()), m.conversionRate(), m.mapWaves(), rate(m.mapSpeed()), rate(m.reduceSpeed()), rate(m.shuffleSpeed()),
          s == Shuffle.SCACHE ? m.scacheCase().figure() : "9b", f.run().startSeconds(), m.mapSeconds(),
          m.shuffleSeconds(), m.overlapSeconds(s), m.launchRounds(), m.reduceLaunchSeconds(), m.reduceSeconds(s),
          f.predictedSeconds(), f.run().jobSeconds(), 100 * f.error(), 100 * f.paperModelError()));
    }
    sb.append(String.format(Locale.ROOT, "  from the Hadoop job alone, SCache should take %.1f s: SCache/Hadoop "
        + "predicted %.2f, measured %.2f%n", hadoop.predictedSeconds(Shuffle.SCACHE), predictedRatio(hadoop),
        scache.run().jobSeconds() / hadoop.run().jobSeconds()));
    return sb.toString();
  }

  /**
   * What the launch term adds where no link limits the shuffle: there the paper's reduce phase is the
   * reduces' own work, while the measured reduce stage also holds their launch (container, JVM, task set-up).
   */
  static String launchTerm(Fitted hadoop, JobFigures hadoopJob, Fitted scache, JobFigures scacheJob) {
    return String.format(Locale.ROOT, "The paper's reduce phase is the reduces' work and the shuffle they wait for, "
        + "none here (%.1f s and %.1f s); the measured reduce stages%n(%.1f s and %.1f s) also hold the reduces' "
        + "launch, container, JVM and task set-up (%.1f s and %.1f s from a reducer's start to its%nshuffle's "
        + "beginning, median), which the launch term adds: the paper's model is off by %+.1f%% and %+.1f%% here, "
        + "with it %+.1f%% and %+.1f%%.%n",
        hadoop.model().withoutLaunch().reduceSeconds(Shuffle.HADOOP),
        scache.model().withoutLaunch().reduceSeconds(Shuffle.SCACHE), hadoopJob.reduceStageSeconds(),
        scacheJob.reduceStageSeconds(), hadoop.run().reduceLaunchSeconds(), scache.run().reduceLaunchSeconds(),
        100 * hadoop.paperModelError(), 100 * scache.paperModelError(), 100 * hadoop.error(), 100 * scache.error());
  }

  /** SCache's job time over Hadoop's as the model predicts it from the Hadoop job alone. */
  static double predictedRatio(Fitted hadoop) {
    return predictedRatio(hadoop, FrqModel.K_HADOOP, FrqModel.K_SCACHE);
  }

  /** The same with {@code kHadoop} and {@code kScache} for the paper's K. */
  static double predictedRatio(Fitted hadoop, double kHadoop, double kScache) {
    return hadoop.predictedSeconds(Shuffle.SCACHE, kScache) / hadoop.predictedSeconds(Shuffle.HADOOP, kHadoop);
  }

  static String rate(double bytesPerSecond) {
    return Double.isInfinite(bytesPerSecond) ? "no limit" : ByteSize.format((long) bytesPerSecond) + "/s";
  }
}
