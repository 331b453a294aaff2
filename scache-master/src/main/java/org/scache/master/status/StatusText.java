package org.scache.master.status;

import java.util.Locale;

/** The status page as plain text, for {@code bin/scache status} and {@code bin/scache shuffle}. */
public final class StatusText {
  private StatusText() {}

  public static String cluster(ClusterView c) {
    StringBuilder b = new StringBuilder();
    b.append("master: ").append(c.role()).append('\n');
    b.append(c.workers().size()).append(" live workers, ").append(c.applications()).append(" applications, ")
        .append(c.shuffles().size()).append(" shuffles\n");
    if (!c.workers().isEmpty()) {
      b.append("\nworkers\n");
      row(b, "%-28s %-24s %10s %10s %10s %8s", "worker", "address", "reserved", "used", "spilled", "seen");
      for (ClusterView.WorkerView w : c.workers()) {
        row(b, "%-28s %-24s %10s %10s %10s %8s", w.workerId(), w.address(), Sizes.bytes(w.reservedBytes()),
            Sizes.bytes(w.usedBytes()), Sizes.bytes(w.spilledBytes()), Sizes.seconds(w.lastSeenAgoMillis()) + " ago");
      }
    }
    if (!c.shuffles().isEmpty()) {
      b.append("\nshuffles\n");
      row(b, "%-32s %7s %9s %7s %-18s %-17s %s", "application", "shuffle", "maps", "reduces", "state", "policy",
          "predictor");
      for (ClusterView.ShuffleSummary s : c.shuffles()) {
        row(b, "%-32s %7d %9s %7d %-18s %-17s %s", s.appId(), s.shuffleId(), s.finishedMaps() + "/" + s.maps(),
            s.reduces(), s.state(), s.policy().isEmpty() ? "-" : s.policy(),
            s.predictor().isEmpty() ? "-" : s.predictor());
      }
    }
    return b.toString();
  }

  public static String shuffle(ShuffleView v) {
    StringBuilder b = new StringBuilder();
    b.append("shuffle ").append(v.shuffleId()).append(" of ").append(v.appId()).append(": ").append(v.maps())
        .append(" maps (").append(v.finishedMaps()).append(" finished), ").append(v.reduces()).append(" reduces, ")
        .append(v.partitioner()).append(" partitioner\n");
    if (v.prediction().isEmpty()) {
      b.append("not placed yet\n");
    } else {
      ShuffleView.Prediction p = v.prediction().get();
      b.append("predictor: ").append(p.predictor()).append(" - ").append(p.reason()).append('\n');
      b.append("placed by ").append(p.policy()).append(" after ").append(p.mapsObserved()).append(" of ")
          .append(v.maps()).append(" maps, ").append(p.slotsPerWorker()).append(" reduce(s) per worker at once");
      v.placedAtMillis().ifPresent(t -> b.append(", ").append(Sizes.seconds(t - v.submittedAtMillis()))
          .append(" after submission"));
      b.append('\n');
      b.append("makespan (largest worker load): predicted ").append(Sizes.bytes(v.predictedMakespan()))
          .append(" against a lower bound of ").append(Sizes.bytes(v.predictedLowerBound())).append(" (")
          .append(Sizes.ratio(v.predictedMakespan(), v.predictedLowerBound())).append("x)");
      if (v.actualKnown()) {
        b.append("; actual ").append(Sizes.bytes(v.actualMakespan())).append(" against ")
            .append(Sizes.bytes(v.actualLowerBound())).append(" (")
            .append(Sizes.ratio(v.actualMakespan(), v.actualLowerBound())).append("x)");
      }
      b.append('\n');
    }
    ShuffleView.Traffic t = v.traffic();
    long prefetched = t.prefetchedDuringMaps() + t.prefetchedAfterMaps();
    b.append("prefetched: ").append(Sizes.bytes(t.prefetchedDuringMaps())).append(" during the map stage, ")
        .append(Sizes.bytes(t.prefetchedAfterMaps())).append(" after it (")
        .append(Sizes.percent(t.prefetchedDuringMaps(), prefetched)).append(" during)\n");
    b.append("read by reduces: ").append(Sizes.bytes(t.localRead())).append(" from their worker's memory, ")
        .append(Sizes.bytes(t.remoteRead())).append(" fetched at read time; ").append(t.reducesRead())
        .append(" of ").append(v.reduces()).append(" reduces read, ").append(t.reducesOffNode())
        .append(" off their placed worker\n");
    if (!v.nodes().isEmpty()) {
      b.append("\nplacement\n");
      row(b, "%-28s %6s %12s %12s  %s", "worker", "rounds", "predicted", "actual", "reduces");
      for (ShuffleView.NodeView n : v.nodes()) {
        row(b, "%-28s %6d %12s %12s  %s", n.workerId(), n.rounds(), Sizes.bytes(n.predictedLoad()),
            v.actualKnown() ? Sizes.bytes(n.actualLoad()) : "?", n.reduces());
      }
    }
    if (!v.reduceViews().isEmpty()) {
      b.append("\nreduces\n");
      row(b, "%6s %12s %12s %7s %-28s %5s %-28s %s", "reduce", "predicted", "actual", "error", "placed on", "round",
          "read on", "note");
      for (ShuffleView.ReduceView r : v.reduceViews()) {
        String error = r.actualBytes() > 0 ? String.format(Locale.ROOT, "%+.0f%%",
            100.0 * (r.predictedBytes() - r.actualBytes()) / r.actualBytes()) : "-";
        row(b, "%6d %12s %12s %7s %-28s %5s %-28s %s", r.reduceId(), Sizes.bytes(r.predictedBytes()),
            Sizes.bytes(r.actualBytes()), error, r.placedWorker().isEmpty() ? "-" : r.placedWorker(),
            r.round() < 0 ? "-" : Integer.toString(r.round()), r.ranOn().orElse("-"), r.offNodeReason().orElse(""));
      }
    }
    return b.toString();
  }

  private static void row(StringBuilder b, String format, Object... args) {
    b.append(String.format(Locale.ROOT, format, args).stripTrailing()).append('\n');
  }
}
