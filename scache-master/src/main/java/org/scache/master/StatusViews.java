package org.scache.master;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import org.scache.common.Clock;
import org.scache.common.ShuffleKey;
import org.scache.common.shuffle.ReduceAssignment;
import org.scache.common.shuffle.ShufflePlacement;
import org.scache.common.shuffle.ShuffleSpec;
import org.scache.master.status.ClusterView;
import org.scache.master.status.ShuffleView;

/** Builds the status page's views from the master's registries, each under its registry's lock. */
final class StatusViews {
  private final WorkerRegistry workers;
  private final ApplicationRegistry applications;
  private final ShuffleRegistry shuffles;
  private final Clock clock;

  StatusViews(WorkerRegistry workers, ApplicationRegistry applications, ShuffleRegistry shuffles, Clock clock) {
    this.workers = workers;
    this.applications = applications;
    this.shuffles = shuffles;
    this.clock = clock;
  }

  /** The cluster as this master sees it, which is {@code role} (for example the leader). */
  ClusterView cluster(String role) {
    long now = clock.millis();
    List<ClusterView.WorkerView> ws = workers.snapshot().stream().map(w -> new ClusterView.WorkerView(
        w.info().workerId(), w.info().address(), w.reservedBytes(), w.usedBytes(), w.spilledBytes(),
        w.spillFileBytes(), Math.max(0, now - w.lastSeenMillis()))).toList();
    List<ClusterView.ShuffleSummary> ss = shuffles.map(StatusViews::summary);
    return new ClusterView(now, role, ws, applications.size(), ss);
  }

  /** The view of one shuffle, if the master knows it. */
  Optional<ShuffleView> shuffle(String appId, int shuffleId) {
    List<ShuffleView> found = new ArrayList<>(1);
    shuffles.ifPresent(new ShuffleKey(appId, shuffleId), s -> found.add(view(s)));
    return found.stream().findFirst();
  }

  private static ClusterView.ShuffleSummary summary(ShuffleState s) {
    ShuffleSpec shape = s.shape().orElse(null);
    int maps = shape == null ? 0 : shape.numMaps();
    int reduces = shape == null ? 0 : shape.numReduces();
    String state = shape == null ? "blocks reported, not registered"
        : s.mapsDoneAtMillis().isPresent() ? "maps done" : s.schedule().isPresent() ? "placed" : "observing maps";
    return new ClusterView.ShuffleSummary(s.shuffle().appId(), s.shuffle().shuffleId(), maps, s.finishedMaps(),
        reduces, state, s.schedule().map(ShufflePlacement::policy).orElse(""),
        s.explanation().map(ScheduleExplanation::predictor).orElse(""));
  }

  private static ShuffleView view(ShuffleState s) {
    ShuffleSpec shape = s.shape().orElse(null);
    int maps = shape == null ? 0 : shape.numMaps();
    int reduces = shape == null ? 0 : shape.numReduces();
    boolean done = maps > 0 && s.finishedMaps() >= maps;
    long[] actual = done ? s.held().byReduce(reduces) : new long[reduces];
    Optional<ScheduleExplanation> why = s.explanation();
    Optional<ShufflePlacement> placement = s.schedule();
    Map<Integer, ShuffleTraffic.ReduceRun> runs = s.traffic().runs();
    List<ShuffleView.ReduceView> rv = new ArrayList<>(reduces);
    Map<String, List<Integer>> byWorker = new TreeMap<>();
    Map<String, long[]> load = new LinkedHashMap<>();
    Map<String, Integer> roundsOf = new TreeMap<>();
    int offNode = 0;
    List<Long> predictions = why.map(ScheduleExplanation::predictedBytes).orElse(List.of());
    for (int r = 0; r < reduces; r++) {
      long predicted = r < predictions.size() ? predictions.get(r) : 0;
      int reduce = r;
      Optional<ReduceAssignment> a = placement.flatMap(p -> p.assignment(reduce));
      String placed = a.map(x -> x.worker().workerId()).orElse("");
      int round = a.map(ReduceAssignment::round).orElse(-1);
      ShuffleTraffic.ReduceRun run = runs.get(r);
      Optional<String> ranOn = Optional.ofNullable(run).map(ShuffleTraffic.ReduceRun::workerId);
      Optional<String> reason = Optional.empty();
      if (run != null && !run.workerId().equals(placed)) {
        offNode++;
        reason = Optional.of(placed.isEmpty() ? "read before the shuffle was placed"
            : !run.placementKnown() ? "started on " + run.workerId() + " before the placement reached it"
            : "placed on " + placed + "; the framework ran it on " + run.workerId()
                + " (no free slot there in time, or its locality wait ran out)");
      }
      rv.add(new ShuffleView.ReduceView(r, predicted, done ? actual[r] : -1, placed, round, ranOn, reason,
          run == null ? 0 : run.localBytes(), run == null ? 0 : run.remoteBytes()));
      if (!placed.isEmpty()) {
        byWorker.computeIfAbsent(placed, k -> new ArrayList<>()).add(r);
        long[] l = load.computeIfAbsent(placed, k -> new long[2]);
        l[0] += predicted;
        l[1] += done ? actual[r] : 0;
        roundsOf.merge(placed, round + 1, Math::max);
      }
    }
    List<ShuffleView.NodeView> nodes = new ArrayList<>();
    byWorker.forEach((w, list) -> nodes.add(new ShuffleView.NodeView(w, list, roundsOf.getOrDefault(w, 0),
        load.get(w)[0], load.get(w)[1])));
    ShuffleTraffic t = s.traffic();
    Optional<ShuffleView.Prediction> prediction = why.map(w -> new ShuffleView.Prediction(w.predictor(), w.reason(),
        placement.map(ShufflePlacement::policy).orElse(""), w.mapsObserved(), w.slotsPerWorker()));
    return new ShuffleView(s.shuffle().appId(), s.shuffle().shuffleId(),
        shape == null ? "unknown" : shape.partitioner().toString(), maps, s.finishedMaps(), reduces,
        shape == null ? 0 : shape.submissionTimeMillis(),
        why.map(w -> OptionalLong.of(w.decidedAtMillis())).orElse(OptionalLong.empty()), s.mapsDoneAtMillis(),
        prediction, rv, nodes, new ShuffleView.Traffic(t.prefetchedDuringMaps(), t.prefetchedAfterMaps(),
            t.localRead(), t.remoteRead(), runs.size(), offNode));
  }
}
