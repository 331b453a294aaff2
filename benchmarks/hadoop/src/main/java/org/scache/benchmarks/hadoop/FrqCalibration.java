package org.scache.benchmarks.hadoop;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import org.scache.benchmarks.harness.ByteSize;
import org.scache.benchmarks.harness.Stats;
import org.scache.hadoop.frq.FrqFit;

/**
 * K found on the cluster itself. The paper calls K "an empirical value" and set it from its own
 * experiments (0.6 for Hadoop's shuffle, 0.5 with SCache, Tables I and II); on another cluster it is
 * another value. Here each shuffle's K is the least-squares fit, through the origin, of the jobs' waits
 * beyond their reduces' launch and work against the model's overlap ({@link FrqFit#observedK()}), and every
 * job is predicted with the K fitted on the other repetitions only, so that no job's own time enters its
 * prediction.
 */
final class FrqCalibration {
  private FrqCalibration() {}

  /** Least-squares K over {@code runs} (all of one shuffle); empty when none has an overlap. */
  static OptionalDouble fit(List<FrqFit> runs) {
    double waitedTimesOverlap = 0;
    double overlapSquared = 0;
    for (FrqFit f : runs) {
      double overlap = f.model().overlapSeconds(f.job().shuffle());
      waitedTimesOverlap += f.waitedSeconds() * overlap;
      overlapSquared += overlap * overlap;
    }
    return overlapSquared > 0 ? OptionalDouble.of(waitedTimesOverlap / overlapSquared) : OptionalDouble.empty();
  }

  /** One repetition predicted with the K of the other repetitions. */
  record Held(NetnsFrq.Pair pair, double kHadoop, double kScache) {
    double hadoopError() {
      return pair.hadoop().error(kHadoop);
    }

    double scacheError() {
      return pair.scache().error(kScache);
    }

    /** SCache's time over Hadoop's as the model predicts it from the Hadoop job alone, with these K. */
    double predictedRatio() {
      return FrqReport.predictedRatio(pair.hadoop(), kHadoop, kScache);
    }
  }

  /** Each pair with the K fitted on the others; empty with fewer than two pairs or no overlap. */
  static List<Held> leaveOneOut(List<NetnsFrq.Pair> pairs) {
    List<Held> held = new ArrayList<>();
    for (NetnsFrq.Pair p : pairs) {
      List<NetnsFrq.Pair> others = pairs.stream().filter(o -> o != p).toList();
      OptionalDouble kHadoop = fit(others.stream().map(NetnsFrq.Pair::hadoop).toList());
      OptionalDouble kScache = fit(others.stream().map(NetnsFrq.Pair::scache).toList());
      if (kHadoop.isPresent() && kScache.isPresent()) {
        held.add(new Held(p, kHadoop.getAsDouble(), kScache.getAsDouble()));
      }
    }
    return held;
  }

  /** The calibrated K and the errors with it, for the summary; blank without at least two pairs. */
  static String format(List<NetnsFrq.Pair> pairs) {
    List<Held> held = leaveOneOut(pairs);
    if (held.isEmpty()) {
      return "";
    }
    double kHadoop = fit(pairs.stream().map(NetnsFrq.Pair::hadoop).toList()).orElseThrow();
    double kScache = fit(pairs.stream().map(NetnsFrq.Pair::scache).toList()).orElseThrow();
    StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "FRQ model with K fitted on this cluster "
        + "(all runs: K = %.2f on Hadoop's shuffle, %.2f with SCache; each repetition predicted with the K of the "
        + "others):%n", kHadoop, kScache));
    for (Held h : held) {
      sb.append(String.format(Locale.ROOT, "  %s, repetition %d: K %.2f / %.2f, error Hadoop's shuffle %+.1f%%, "
          + "SCache %+.1f%%; SCache/Hadoop from the Hadoop job alone predicted %.2f, measured %.2f%n",
          ByteSize.format(h.pair().size()), h.pair().repetition(),
          h.kHadoop(), h.kScache(), 100 * h.hadoopError(), 100 * h.scacheError(), h.predictedRatio(),
          h.pair().scache().job().jobSeconds() / h.pair().hadoop().job().jobSeconds()));
    }
    sb.append(String.format(Locale.ROOT, "  median |error|: Hadoop's shuffle %.1f%%, SCache %.1f%% (the paper: within "
        + "10%%)%n", 100 * Stats.median(held.stream().map(h -> Math.abs(h.hadoopError())).toList()),
        100 * Stats.median(held.stream().map(h -> Math.abs(h.scacheError())).toList())));
    return sb.toString();
  }
}
