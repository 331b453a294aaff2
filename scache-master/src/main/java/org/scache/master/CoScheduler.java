package org.scache.master;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.IntFunction;
import org.scache.common.Clock;
import org.scache.common.ShuffleKey;
import org.scache.common.WorkerInfo;
import org.scache.common.shuffle.MapSample;
import org.scache.common.shuffle.PredictorKind;
import org.scache.common.shuffle.ReduceAssignment;
import org.scache.common.shuffle.ReduceMove;
import org.scache.common.shuffle.ShufflePlacement;
import org.scache.common.shuffle.ShuffleSpec;
import org.scache.master.predict.LinearRegressionPredictor;
import org.scache.master.predict.ReducePrediction;
import org.scache.master.predict.SamplingPredictor;
import org.scache.master.schedule.AccumulatedScheduler;
import org.scache.master.schedule.ContiguousRangeScheduler;
import org.scache.master.schedule.HeuristicMinHeapScheduler;
import org.scache.master.schedule.HostPlacement;
import org.scache.master.schedule.MapEndBalance;
import org.scache.sampling.SplitSample;
import org.scache.sampling.WeightedSamplingPredictor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The DAG co-scheduler of the paper (Sections III-B and IV-A): decides when a shuffle has been
 * observed enough, predicts every reduce's size with the predictor the partitioner calls for, and
 * places the reduces with Algorithm 1, or Algorithm 2 when earlier shuffles of the same reduce stage
 * were placed already; a shuffle whose reduce tasks may read ranges of consecutive reduces is placed in
 * contiguous runs ({@link ContiguousRangeScheduler}) instead of Algorithm 1. Not thread-safe: the master calls it under
 * the shuffle registry's lock.
 */
final class CoScheduler {
  static final String MIN_HEAP = "heuristic-minheap";
  static final String ACCUMULATED = "accumulated";
  static final String CONTIGUOUS = "contiguous-ranges";
  static final String ACCUMULATED_CONTIGUOUS = "accumulated-contiguous-ranges";
  private static final Logger LOG = LoggerFactory.getLogger(CoScheduler.class);

  /** A placement just made, the re-shuffles it orders, and when it was made. */
  record Decision(ShufflePlacement result, List<ReduceMove> moves, long madeAtMillis,
      long submissionTimeMillis) {}

  private record StageKey(String appId, int stageId) {}

  /** The shuffles of one reduce stage scheduled so far, and Algorithm 2's state for them. */
  private static final class Stage {
    final AccumulatedScheduler scheduler = new AccumulatedScheduler();
    final List<Integer> shuffles = new ArrayList<>();
  }

  /** The least share of the largest link load a move at the maps' end must save. */
  static final double BALANCE_MIN_GAIN = 0.05;

  private final double threshold;
  private final int slotsPerWorker;
  private final boolean balanceAtMapEnd;
  private final Clock clock;
  private final Map<StageKey, Stage> stages = new HashMap<>();

  CoScheduler(double threshold, int slotsPerWorker, Clock clock) {
    this(threshold, slotsPerWorker, true, clock);
  }

  /** @param balanceAtMapEnd whether {@link #balanceAtMapEnd} may move reduces */
  CoScheduler(double threshold, int slotsPerWorker, boolean balanceAtMapEnd, Clock clock) {
    org.scache.common.Checks.require(threshold >= 0 && threshold <= 1, "threshold must be in [0, 1]: %s", threshold);
    org.scache.common.Checks.require(slotsPerWorker >= 1, "slots per worker must be at least 1: %s", slotsPerWorker);
    this.threshold = threshold;
    this.slotsPerWorker = slotsPerWorker;
    this.balanceAtMapEnd = balanceAtMapEnd;
    this.clock = clock;
  }

  /**
   * Finished maps a shuffle needs before it is scheduled from observations: the threshold's share of its tasks
   * (a task that writes several maps one after the other finishes its first long before the task ends, so the
   * maps of as many tasks are observed, not as many tasks' maps).
   */
  int mapsNeeded(ShuffleSpec shape) {
    int tasks = shape.numTasks();
    return tasks == 0 ? 0 : Math.max(1, (int) Math.ceil(threshold * tasks - 1e-9));
  }

  /** The predictor for a shuffle: its override, else the paper's rule. */
  static PredictorKind predictorOf(ShuffleSpec shape) {
    return shape.chosenPredictor();
  }

  /** Why {@code s} is not scheduled yet, for a NOT_READY answer. */
  String waitingFor(ShuffleState s) {
    ShuffleSpec shape = s.shape().orElseThrow();
    String observed = s.availableCount() + " of " + shape.numMaps() + " maps finished, "
        + mapsNeeded(shape) + " needed (observation threshold " + threshold + ")";
    return predictorOf(shape) == PredictorKind.SAMPLING
        ? observed + "; samples of " + s.samples().size() + " of " + shape.numMaps() + " maps reported" : observed;
  }

  /**
   * Schedules {@code s} if it is registered, not scheduled and observed enough: every map sampled
   * (sampling shuffles), or the observation threshold of finished maps reached (a sampling shuffle
   * without complete samples then falls back to regression). Stores the result in {@code s} and
   * updates the earlier shuffles of its stage that re-shuffles move.
   *
   * @param live the workers to place on, ordered by id; nothing is scheduled when empty
   * @param sameApp the state of another shuffle of the same application, by shuffle id
   */
  synchronized Optional<Decision> scheduleIfDue(ShuffleState s, List<WorkerInfo> live,
      IntFunction<Optional<ShuffleState>> sameApp) {
    if (s.schedule().isPresent() || s.shape().isEmpty() || live.isEmpty()) {
      return Optional.empty();
    }
    ShuffleSpec shape = s.shape().get();
    PredictorKind kind = predictorOf(shape);
    boolean sampled = kind == PredictorKind.SAMPLING && shape.numMaps() > 0
        && s.samples().size() == shape.numMaps();
    if (!sampled && s.availableCount() < mapsNeeded(shape)) {
      return Optional.empty();
    }
    if (kind == PredictorKind.SAMPLING && !sampled) {
      LOG.info("{}: threshold reached without samples of every map; predicting by regression", s.shuffle());
    }
    long started = clock.nanos();
    List<ReducePrediction> predictions = shape.numReduces() == 0 || shape.numMaps() == 0
        ? zeroPredictions(shape.numReduces())
        : sampled ? bySampling(s, shape, live) : byRegression(s, shape);
    long predicted = clock.nanos();
    Decision d = place(s, shape, live, predictions, sameApp);
    long placed = clock.nanos();
    s.schedule(d.result());
    s.explain(new ScheduleExplanation(sampled ? "sampling" : "regression", reason(s, shape, kind, sampled),
        s.availableCount(), predictions.stream().map(p -> Math.round(p.size())).toList(), d.madeAtMillis(),
        shape.slotsPerWorker() == ShuffleSpec.MASTER_SLOTS ? slotsPerWorker : shape.slotsPerWorker()));
    LOG.info("{}: {} reduces placed by {} ({} predictor) {} ms after registration, {} re-shuffles; predicted in {} "
        + "ms, placed in {} ms", s.shuffle(), shape.numReduces(), d.result().policy(), sampled ? "sampling"
        : "regression", d.madeAtMillis() - shape.submissionTimeMillis(), d.moves().size(),
        (predicted - started) / 1_000_000, (placed - predicted) / 1_000_000);
    return Optional.of(d);
  }

  /**
   * Once every map of a placed shuffle has ended, moves reduces to even out the bytes each worker's link still
   * has to carry ({@link MapEndBalance}), if the framework starts no reduce before then
   * ({@link ShuffleSpec#reducesAfterMaps()}), its reduces are read one by one (not in ranges), and no other
   * shuffle of its reduce stage is placed (a reduce reads them all from one worker). A moved reduce goes to the
   * last round of its new worker. Called after each finished map; acts once per shuffle.
   *
   * @return the placement with the moves, and the moves, when any reduce moved
   */
  Optional<Decision> balanceAtMapEnd(ShuffleState s, List<WorkerInfo> live,
      IntFunction<Optional<ShuffleState>> sameApp) {
    // most finished maps end here, without the lock placements hold while they compute
    if (!balanceAtMapEnd || s.shape().isEmpty() || !s.shape().get().reducesAfterMaps() || !s.firstLookAtMapEnd()) {
      return Optional.empty();
    }
    return balance(s, s.shape().get(), live, sameApp);
  }

  private synchronized Optional<Decision> balance(ShuffleState s, ShuffleSpec shape, List<WorkerInfo> live,
      IntFunction<Optional<ShuffleState>> sameApp) {
    Stage stage = shape.stageId() == ShuffleSpec.NO_STAGE ? null
        : stages.get(new StageKey(shape.appId(), shape.stageId()));
    boolean sharedStage = stage != null && stage.shuffles.stream()
        .anyMatch(id -> id != shape.shuffleId() && sameApp.apply(id).flatMap(ShuffleState::schedule).isPresent());
    if (shape.readsRanges() || sharedStage || live.size() < 2) {
      return Optional.empty();
    }
    Map<String, Integer> index = new HashMap<>();
    live.forEach(w -> index.putIfAbsent(w.workerId(), index.size()));
    ShufflePlacement placed = s.schedule().get();
    int reduces = shape.numReduces();
    int[] hostOf = new int[reduces];
    for (int r = 0; r < reduces; r++) {
      Integer w = placed.workerOf(r).map(x -> index.get(x.workerId())).orElse(null);
      if (w == null) {
        return Optional.empty(); // a reduce's worker is gone: its reads go elsewhere anyway
      }
      hostOf[r] = w;
    }
    long[][] held = s.held().byReduceAndWorker(reduces, index);
    int slots = shape.slotsPerWorker() == ShuffleSpec.MASTER_SLOTS ? slotsPerWorker : shape.slotsPerWorker();
    int most = (reduces + index.size() - 1) / index.size() + slots;
    List<MapEndBalance.Move> chosen = new MapEndBalance(BALANCE_MIN_GAIN).moves(held, hostOf, most);
    if (chosen.isEmpty()) {
      return Optional.empty();
    }
    int[] count = new int[index.size()];
    for (int h : hostOf) {
      count[h]++;
    }
    List<ReduceMove> moves = new ArrayList<>();
    for (MapEndBalance.Move m : chosen) {
      WorkerInfo from = live.get(m.from());
      WorkerInfo to = live.get(m.to());
      int round = count[m.to()]++ / slots;
      count[m.from()]--;
      s.moveReduce(m.reduceId(), to, round);
      if (stage != null) {
        stage.scheduler.moved(m.reduceId(), to.workerId());
      }
      moves.add(new ReduceMove(shape.shuffleId(), m.reduceId(), from, to));
    }
    LOG.info("{}: every map done; {} reduces moved to even out the workers' links: {}", s.shuffle(), moves.size(),
        moves.stream().map(m -> m.reduceId() + " " + m.from().workerId() + " -> " + m.to().workerId()).toList());
    return Optional.of(new Decision(s.schedule().get(), moves, clock.millis(), shape.submissionTimeMillis()));
  }

  /** Why the predictor that placed {@code s} was chosen, for a job author. */
  private String reason(ShuffleState s, ShuffleSpec shape, PredictorKind kind, boolean sampled) {
    String partitioner = shape.partitioner() + " partitioner" + (shape.predictor().isPresent()
        ? ", predictor chosen by the job" : "");
    int finished = s.availableCount();
    if (shape.numReduces() == 0 || shape.numMaps() == 0) {
      return "nothing to predict: " + shape.numMaps() + " maps, " + shape.numReduces() + " reduces";
    }
    if (sampled) {
      return partitioner + ": reduce sizes estimated from weighted reservoir samples of all " + shape.numMaps()
          + " maps (eq. 2), placed before most maps ran; locality from where each map ran or is expected (eq. 3)";
    }
    if (kind == PredictorKind.SAMPLING) {
      return partitioner + ": sampling was asked for, but " + finished + " of " + shape.numMaps()
          + " maps finished (observation threshold " + threshold + ") before every map was sampled, so the sizes "
          + "were fitted by linear regression on the finished maps (eq. 1)";
    }
    return partitioner + ": each reduce's share of a map's output is stable, so its size was fitted by linear "
        + "regression on map input (eq. 1) over the " + finished + " of " + shape.numMaps()
        + " maps finished when the observation threshold (" + threshold + ") was reached";
  }

  /**
   * Takes a placement made before this master led (kept in ZooKeeper or the state directory) into its stage's
   * Algorithm 2 state, as if placed here: the stage's next shuffle accumulates onto it. The shuffles of a stage may
   * come in any order: their predicted sizes add up, and their kept placements agree on each reduce's worker (a
   * later shuffle's moves are kept in the earlier ones' placements).
   */
  synchronized void rememberPlaced(ShuffleSpec shape, ShufflePlacement placement) {
    if (shape.stageId() == ShuffleSpec.NO_STAGE) {
      return;
    }
    Stage stage = stages.computeIfAbsent(new StageKey(shape.appId(), shape.stageId()), k -> new Stage());
    for (ReduceAssignment a : placement.assignments()) {
      stage.scheduler.remember(a.reduceId(), a.predictedBytes(), a.worker().workerId());
    }
    stage.shuffles.add(shape.shuffleId());
  }

  /** Forgets the stages of a removed application. */
  synchronized void forgetApplication(String appId) {
    stages.keySet().removeIf(k -> k.appId().equals(appId));
  }

  private static List<ReducePrediction> zeroPredictions(int reduces) {
    List<ReducePrediction> list = new ArrayList<>(reduces);
    for (int r = 0; r < reduces; r++) {
      list.add(ReducePrediction.withoutHost(r, 0));
    }
    return list;
  }

  /** Eq. 1 on the observed maps; unknown input sizes count as equal (then unobserved maps get the mean). */
  private static List<ReducePrediction> byRegression(ShuffleState s, ShuffleSpec shape) {
    return new LinearRegressionPredictor(shape.numReduces()).predict(s.mapInputs(), s.regressionSums().orElseThrow(),
        s.held(), s.storedMaps(shape.numMaps()));
  }

  /**
   * Eq. 2 on the samples of every map. Eq. 3 takes each map's holder: the worker its output is on for
   * a map finished so far, else the worker on the host the framework expects it to run on.
   */
  private static List<ReducePrediction> bySampling(ShuffleState s, ShuffleSpec shape, List<WorkerInfo> live) {
    Map<String, String> workerOnHost = new HashMap<>();
    live.forEach(w -> workerOnHost.putIfAbsent(w.host(), w.workerId()));
    List<SplitSample> splits = new ArrayList<>(shape.numMaps());
    List<Optional<String>> hosts = new ArrayList<>(shape.numMaps());
    int capacity = 0;
    for (int m = 0; m < shape.numMaps(); m++) {
      MapSample sample = s.samples().get(m);
      int[] counts = sample.countsPerReduce().stream().mapToInt(Integer::intValue).toArray();
      splits.add(SplitSample.of(sample.inputBytes(), sample.capacity(), counts));
      capacity = sample.capacity();
      Optional<String> holder = s.holderOf(m);
      hosts.add(holder.isPresent() ? holder : sample.expectedHost().map(workerOnHost::get));
    }
    int samplesPerReduce = capacity / shape.numReduces();
    return new SamplingPredictor(new WeightedSamplingPredictor(shape.numReduces(), samplesPerReduce))
        .predict(splits, hosts);
  }

  private Decision place(ShuffleState s, ShuffleSpec shape, List<WorkerInfo> live,
      List<ReducePrediction> predictions, IntFunction<Optional<ShuffleState>> sameApp) {
    List<String> hosts = live.stream().map(WorkerInfo::workerId).toList();
    Map<String, WorkerInfo> byId = new HashMap<>();
    live.forEach(w -> byId.put(w.workerId(), w));
    int mapCount = Math.max(1, shape.numMaps());
    int slots = shape.slotsPerWorker() == ShuffleSpec.MASTER_SLOTS ? slotsPerWorker : shape.slotsPerWorker();
    HostPlacement placed;
    String policy;
    Stage stage = null;
    boolean ranges = shape.readsRanges();
    if (shape.stageId() == ShuffleSpec.NO_STAGE) {
      placed = ranges ? new ContiguousRangeScheduler().schedule(mapCount, hosts, predictions)
          : new HeuristicMinHeapScheduler().schedule(mapCount, hosts, predictions);
      policy = ranges ? CONTIGUOUS : MIN_HEAP;
    } else {
      stage = stages.computeIfAbsent(new StageKey(shape.appId(), shape.stageId()), k -> new Stage());
      stage.shuffles.removeIf(id -> sameApp.apply(id).flatMap(ShuffleState::schedule).isEmpty());
      placed = ranges ? stage.scheduler.scheduleContiguous(mapCount, hosts, predictions)
          : stage.scheduler.schedule(mapCount, hosts, predictions).result();
      policy = stage.shuffles.isEmpty() ? (ranges ? CONTIGUOUS : MIN_HEAP)
          : (ranges ? ACCUMULATED_CONTIGUOUS : ACCUMULATED);
    }
    long[] predictedBytes = new long[shape.numReduces()];
    Arrays.fill(predictedBytes, ReduceAssignment.UNKNOWN_SIZE);
    for (ReducePrediction p : predictions) {
      if (p.reduceId() < predictedBytes.length) {
        predictedBytes[p.reduceId()] = Math.round(p.size());
      }
    }
    List<ReduceAssignment> assignments = new ArrayList<>(shape.numReduces());
    for (int r = 0; r < shape.numReduces(); r++) {
      assignments.add(new ReduceAssignment(r, byId.get(placed.hostOf(r)), placed.roundOf(r, slots),
          predictedBytes[r]));
    }
    List<ReduceMove> moves = new ArrayList<>();
    if (stage != null) {
      // a reduce of the stage reads every shuffle of the stage: the earlier shuffles' placement of it
      // follows this one's, its worker (a re-shuffle) and its round alike
      for (ReduceAssignment now : assignments) {
        for (int earlier : stage.shuffles) {
          Optional<ShuffleState> e = sameApp.apply(earlier);
          Optional<ReduceAssignment> before = e.flatMap(ShuffleState::schedule)
              .flatMap(sr -> sr.assignment(now.reduceId()));
          if (before.isPresent() && (!before.get().worker().workerId().equals(now.worker().workerId())
              || before.get().round() != now.round())) {
            moves.add(new ReduceMove(earlier, now.reduceId(), before.get().worker(), now.worker()));
            e.get().moveReduce(now.reduceId(), now.worker(), now.round());
          }
        }
      }
      stage.shuffles.add(shape.shuffleId());
    }
    ShuffleKey key = s.shuffle();
    return new Decision(new ShufflePlacement(key.appId(), key.shuffleId(), policy, assignments), moves,
        clock.millis(), shape.submissionTimeMillis());
  }
}
