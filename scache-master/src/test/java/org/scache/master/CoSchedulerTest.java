package org.scache.master;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.scache.common.BlockId;
import org.scache.common.ScacheException;
import org.scache.common.ShuffleKey;
import org.scache.common.WorkerInfo;
import org.scache.common.protocol.Status;
import org.scache.common.shuffle.BlockSize;
import org.scache.common.shuffle.MapSample;
import org.scache.common.shuffle.PartitionerKind;
import org.scache.common.shuffle.PredictorKind;
import org.scache.common.shuffle.ReduceAssignment;
import org.scache.common.shuffle.ReduceMove;
import org.scache.common.shuffle.ShufflePlacement;
import org.scache.common.shuffle.ShuffleSpec;
import org.scache.common.testing.ManualClock;

class CoSchedulerTest {
  private static final List<WorkerInfo> LIVE = List.of(new WorkerInfo("w0", "h0", 1000),
      new WorkerInfo("w1", "h1", 1001), new WorkerInfo("w2", "h2", 1002));

  private final ManualClock clock = new ManualClock();
  private final CoScheduler scheduler = new CoScheduler(0.5, 1, clock);
  private final Map<Integer, ShuffleState> shuffles = new HashMap<>();

  private ShuffleState shuffle(int id, int maps, int reduces, PartitionerKind kind, int stage) {
    ShuffleState s = new ShuffleState(new ShuffleKey("app", id));
    s.register(new ShuffleSpec("app", id, maps, reduces, kind, clock.millis(), List.of(), stage, Optional.empty()));
    shuffles.put(id, s);
    return s;
  }

  /** Map {@code map} ran on {@code host} and produced {@code sizes[r]} bytes for reduce r. */
  private static void finish(ShuffleState s, int map, String host, long... sizes) {
    for (int r = 0; r < sizes.length; r++) {
      s.report(new BlockId("app", s.shuffle().shuffleId(), map, 0, r), sizes[r], host);
    }
    s.mapFinished(map, 0);
  }

  private Optional<CoScheduler.Decision> schedule(ShuffleState s) {
    return scheduler.scheduleIfDue(s, LIVE, id -> Optional.ofNullable(shuffles.get(id)));
  }

  @Test
  void scheduleIfDue_beforeThreshold_isEmpty_andAtThreshold_placesByAlgorithm1AtTheClockTime() {
    ShuffleState s = shuffle(0, 4, 3, PartitionerKind.HASH, ShuffleSpec.NO_STAGE);
    finish(s, 0, "w1", 900, 10, 10);
    assertTrue(schedule(s).isEmpty(), "1 of 4 maps is below the 0.5 threshold");
    clock.advance(Duration.ofMillis(1234));
    finish(s, 1, "w1", 900, 10, 10);
    CoScheduler.Decision d = schedule(s).orElseThrow();
    assertEquals(CoScheduler.MIN_HEAP, d.result().policy());
    assertEquals(clock.millis(), d.madeAtMillis());
    assertEquals("w1", d.result().assignments().get(0).worker().workerId(),
        "the largest reduce, all of whose input is on w1, is placed on w1");
    assertEquals(Optional.of(d.result()), s.schedule());
    assertTrue(schedule(s).isEmpty(), "a placement is made once");
  }

  @Test
  void shuffleWhoseTasksWriteSeveralMapsEach_isPlacedWhenTheThresholdsShareOfTasksWorthOfMapsFinished() {
    // 4 tasks writing 3 maps each: the 0.5 threshold is 2 finished maps (the first of two tasks), not 6
    ShuffleState s = new ShuffleState(new ShuffleKey("app", 0));
    s.register(new ShuffleSpec("app", 0, 12, 3, PartitionerKind.HASH, clock.millis(), List.of(), ShuffleSpec.NO_STAGE,
        Optional.empty(), ShuffleSpec.MASTER_SLOTS, false, true, 3));
    shuffles.put(0, s);
    finish(s, 0, "w1", 300, 10, 10);
    assertTrue(schedule(s).isEmpty(), "1 map is below the threshold");
    assertTrue(scheduler.waitingFor(s).contains("1 of 12 maps finished, 2 needed"), scheduler.waitingFor(s));
    finish(s, 3, "w2", 300, 10, 10);
    assertEquals(3, schedule(s).orElseThrow().result().assignments().size());
  }

  @Test
  void scheduleIfDue_withoutLiveWorkers_waits() {
    ShuffleState s = shuffle(0, 1, 1, PartitionerKind.HASH, ShuffleSpec.NO_STAGE);
    finish(s, 0, "w0", 1);
    assertTrue(scheduler.scheduleIfDue(s, List.of(), id -> Optional.empty()).isEmpty());
  }

  @Test
  void rangeShuffle_isPlacedWhenEveryMapIsSampled_evenWithNoMapFinished() {
    ShuffleState s = shuffle(0, 2, 2, PartitionerKind.RANGE, ShuffleSpec.NO_STAGE);
    assertEquals(PredictorKind.SAMPLING, CoScheduler.predictorOf(s.shape().orElseThrow()));
    s.addSamples(List.of(new MapSample(0, 1000, 6, List.of(6, 0))));
    assertTrue(schedule(s).isEmpty());
    assertTrue(scheduler.waitingFor(s).contains("samples of 1 of 2 maps"), scheduler.waitingFor(s));
    s.addSamples(List.of(new MapSample(1, 1000, 6, List.of(5, 1))));
    CoScheduler.Decision d = schedule(s).orElseThrow();
    assertEquals(2, d.result().assignments().size());
    assertFalse(d.result().assignments().get(0).worker().equals(d.result().assignments().get(1).worker()),
        "the two reduces are spread");
  }

  @Test
  void samples_withACapacityThatIsNotAMultipleOfTheReduces_areRefused() {
    ShuffleState s = shuffle(0, 2, 2, PartitionerKind.RANGE, ShuffleSpec.NO_STAGE);
    ScacheException e = assertThrows(ScacheException.class,
        () -> s.addSamples(List.of(new MapSample(0, 1000, 5, List.of(5, 0)))));
    assertEquals(Status.INVALID_ARGUMENT, e.status());
  }

  @Test
  void registration_withTheWrongNumberOfInputSizes_isRefused() {
    ShuffleState s = new ShuffleState(new ShuffleKey("app", 0));
    ScacheException e = assertThrows(ScacheException.class, () -> s.register(new ShuffleSpec("app", 0, 3, 1,
        PartitionerKind.HASH, 0, List.of(1L, 2L), ShuffleSpec.NO_STAGE, Optional.empty())));
    assertEquals(Status.INVALID_ARGUMENT, e.status());
  }

  @Test
  void secondShuffleOfAStage_isPlacedByAlgorithm2_andAMovedReduceFollowsInTheEarlierShuffle() {
    ShuffleState first = shuffle(10, 1, 3, PartitionerKind.HASH, 7);
    finish(first, 0, "w0", 100, 100, 100);
    ShufflePlacement a = schedule(first).orElseThrow().result();
    assertEquals(CoScheduler.MIN_HEAP, a.policy());
    assertEquals("w0", a.assignments().get(0).worker().workerId());

    ShuffleState second = shuffle(11, 1, 3, PartitionerKind.HASH, 7);
    finish(second, 0, "w1", 5000, 100, 100);
    CoScheduler.Decision d = schedule(second).orElseThrow();
    assertEquals(CoScheduler.ACCUMULATED, d.result().policy());
    assertEquals(List.of(new ReduceMove(10, 0, LIVE.get(0), LIVE.get(1))),
        d.moves().stream().filter(ReduceMove::changesWorker).toList());
    assertEquals("w1", first.schedule().orElseThrow().assignments().get(0).worker().workerId(),
        "reduce 0 of the earlier shuffle now runs where the stage's reduce 0 runs");
  }

  @Test
  void mapOutputNotices_afterTheSchedule_goToTheAssignedWorkers_butNotToTheHolder() {
    ShuffleState s = shuffle(0, 2, 3, PartitionerKind.HASH, ShuffleSpec.NO_STAGE);
    finish(s, 0, "w0", 300, 200, 100);
    ShufflePlacement placed = schedule(s).orElseThrow().result();
    long[] sizes = {30, 20, 10};
    for (int r = 0; r < sizes.length; r++) {
      s.report(new BlockId("app", s.shuffle().shuffleId(), 1, 0, r), sizes[r], "w0");
    }
    AttemptBlocks ended = s.mapFinished(1, 0);
    Map<String, WorkerInfo> byId = new HashMap<>();
    LIVE.forEach(w -> byId.put(w.workerId(), w));
    List<MapOutputNotices.Notice> notices = MapOutputNotices.forFinishedMap(s, 1, 0, ended,
        id -> Optional.ofNullable(byId.get(id)));
    int expected = 0;
    for (ReduceAssignment a : placed.assignments()) {
      if (!a.worker().workerId().equals("w0")) {
        expected++;
      }
    }
    assertEquals(expected, notices.stream().mapToInt(n -> n.blocks().count()).sum());
    for (MapOutputNotices.Notice n : notices) {
      assertFalse(n.to().workerId().equals("w0"));
      assertEquals("w0", n.holder().workerId());
      for (BlockSize b : n.blocks().asBlocks("app", 0, 1, 0)) {
        assertEquals(n.to(), placed.assignments().get(b.blockId().reduceId()).worker());
        assertEquals(sizes[b.blockId().reduceId()], b.size(), "the ended attempt's own size, not a mean");
      }
    }
  }

  @Test
  void laterShuffleOfAStage_givesTheEarlierShufflesReducesItsRounds_movedOrNot() {
    // two 1-slot workers; the map outputs are on a host that is no worker, so no locality swap
    List<WorkerInfo> two = LIVE.subList(0, 2);
    ShuffleState first = shuffle(20, 1, 4, PartitionerKind.HASH, 9);
    finish(first, 0, "elsewhere", 10, 8, 6, 4);
    assertTrue(scheduler.scheduleIfDue(first, two, id -> Optional.ofNullable(shuffles.get(id))).isPresent());
    ShuffleState second = shuffle(21, 1, 4, PartitionerKind.HASH, 9);
    finish(second, 0, "elsewhere", 1, 1, 30, 1);
    CoScheduler.Decision d = scheduler.scheduleIfDue(second, two, id -> Optional.ofNullable(shuffles.get(id)))
        .orElseThrow();
    ShufflePlacement earlier = first.schedule().orElseThrow();
    for (ReduceAssignment now : d.result().assignments()) {
      ReduceAssignment before = earlier.assignment(now.reduceId()).orElseThrow();
      assertEquals(List.of(now.worker(), now.round()), List.of(before.worker(), before.round()),
          "reduce " + now.reduceId() + " of the earlier shuffle runs with the stage: same worker, same round");
    }
    for (ReduceMove m : d.moves()) {
      assertEquals(20, m.shuffleId());
    }
    assertTrue(d.moves().stream().anyMatch(m -> !m.changesWorker()), "a reduce that stayed changed its round");
  }

  @Test
  void placement_carriesEachReducesPredictedInputSize() {
    ShuffleState s = shuffle(22, 1, 4, PartitionerKind.HASH, ShuffleSpec.NO_STAGE);
    finish(s, 0, "elsewhere", 10, 8, 0, 4);
    CoScheduler.Decision d = scheduler.scheduleIfDue(s, LIVE, id -> Optional.empty()).orElseThrow();
    assertEquals(List.of(10L, 8L, 0L, 4L), d.result().assignments().stream().map(ReduceAssignment::predictedBytes)
        .toList(), "the one map is the whole stage: its block sizes are the reduces' inputs");
  }

  /** A TeraSort-like second shuffle: map m sends 93 % of its sampled records to reduce m. */
  private ShuffleState diagonal(int id, int n, boolean withHosts) {
    ShuffleState s = shuffle(id, n, n, PartitionerKind.RANGE, ShuffleSpec.NO_STAGE);
    List<MapSample> samples = new java.util.ArrayList<>();
    for (int m = 0; m < n; m++) {
      List<Integer> counts = new java.util.ArrayList<>();
      for (int r = 0; r < n; r++) {
        counts.add(r == m ? 93 : (r == (m + 1) % n ? 7 : 0));
      }
      // map m runs on the host of worker (n - 1 - m): no placement that ignores the hosts finds it by chance
      samples.add(new MapSample(m, 1_000_000, 100 * n, counts,
          withHosts ? Optional.of(LIVE.get(n - 1 - m).host()) : Optional.empty()));
    }
    s.addSamples(samples);
    return s;
  }

  @Test
  void sampledShuffle_placedBeforeAnyMapRan_keepsEachReduceBesideTheMapExpectedToFeedItMost() {
    ShufflePlacement placed = schedule(diagonal(30, 3, true)).orElseThrow().result();
    for (int r = 0; r < 3; r++) {
      assertEquals(LIVE.get(2 - r), placed.workerOf(r).orElseThrow(),
          "reduce " + r + " on the host of map " + r + ", which sends it 93 % of its input");
    }
  }

  @Test
  void sampledShuffle_withoutExpectedHosts_isPlacedBySizeAlone() {
    ShufflePlacement placed = schedule(diagonal(31, 3, false)).orElseThrow().result();
    assertEquals(3, placed.assignments().stream().map(a -> a.worker()).distinct().count());
  }

  @Test
  void roundsOfAShuffle_comeFromTheSlotsItsFrameworkNames_elseFromTheMasters() {
    ShuffleState own = new ShuffleState(new ShuffleKey("app", 40));
    own.register(new ShuffleSpec("app", 40, 1, 6, PartitionerKind.HASH, 0, List.of(), ShuffleSpec.NO_STAGE,
        Optional.empty(), 2));
    shuffles.put(40, own);
    finish(own, 0, "elsewhere", 6, 6, 6, 6, 6, 6);
    assertTrue(schedule(own).orElseThrow().result().assignments().stream().allMatch(a -> a.round() == 0),
        "two reduces per worker, two slots: one round");
    ShuffleState master = shuffle(41, 1, 6, PartitionerKind.HASH, ShuffleSpec.NO_STAGE);
    finish(master, 0, "elsewhere", 6, 6, 6, 6, 6, 6);
    assertEquals(java.util.Set.of(0, 1), schedule(master).orElseThrow().result().assignments().stream()
        .map(a -> a.round()).collect(java.util.stream.Collectors.toSet()), "the master's one slot: two rounds");
  }

  private ShuffleState rangeShuffle(int id, int reduces, int stage) {
    ShuffleState s = new ShuffleState(new ShuffleKey("app", id));
    s.register(new ShuffleSpec("app", id, 1, reduces, PartitionerKind.HASH, clock.millis(), List.of(), stage,
        Optional.empty(), ShuffleSpec.MASTER_SLOTS, true));
    shuffles.put(id, s);
    return s;
  }

  private static List<String> workersInOrder(ShufflePlacement p) {
    return p.assignments().stream().map(a -> a.worker().workerId()).toList();
  }

  @Test
  void shuffleReadInRanges_isPlacedInRunsOfConsecutiveReduces_andItsStagesNextShuffleKeepsThem() {
    ShuffleState first = rangeShuffle(50, 6, 3);
    finish(first, 0, "w2", 10, 10, 10, 10, 10, 10);
    ShufflePlacement a = schedule(first).orElseThrow().result();
    assertEquals(CoScheduler.CONTIGUOUS, a.policy());
    List<String> runs = workersInOrder(a);
    assertEquals(List.of(runs.get(0), runs.get(0), runs.get(2), runs.get(2), runs.get(4), runs.get(4)), runs,
        "two consecutive reduces per worker");
    assertEquals(3, new java.util.HashSet<>(runs).size());

    ShuffleState second = rangeShuffle(51, 6, 3);
    finish(second, 0, "w0", 20, 20, 20, 20, 20, 20);
    CoScheduler.Decision d = schedule(second).orElseThrow();
    assertEquals(CoScheduler.ACCUMULATED_CONTIGUOUS, d.result().policy());
    assertEquals(runs, workersInOrder(d.result()), "a join's two sides keep the same runs");
    assertTrue(d.moves().stream().noneMatch(ReduceMove::changesWorker));
  }

  private ShuffleState shuffleStartingReducesAfterMaps(int id, int maps, int reduces, boolean afterMaps) {
    ShuffleState s = new ShuffleState(new ShuffleKey("app", id));
    s.register(new ShuffleSpec("app", id, maps, reduces, PartitionerKind.HASH, clock.millis(), List.of(),
        ShuffleSpec.NO_STAGE, Optional.empty(), 2, false, afterMaps));
    shuffles.put(id, s);
    return s;
  }

  private Optional<CoScheduler.Decision> balance(ShuffleState s) {
    s.mapsDoneIfAll(clock.millis());
    return scheduler.balanceAtMapEnd(s, LIVE, id -> Optional.ofNullable(shuffles.get(id)));
  }

  @Test
  void balanceAtMapEnd_movesReducesOntoTheWorkerWhoseMapsWroteMost_onceTheLastMapEnded_once() {
    ShuffleState s = shuffleStartingReducesAfterMaps(60, 12, 6, true);
    for (int m = 0; m < 6; m++) {
      finish(s, m, LIVE.get(m % 3).workerId(), 10, 10, 10, 10, 10, 10);
    }
    ShufflePlacement placed = schedule(s).orElseThrow().result();
    for (int m = 6; m < 11; m++) {
      finish(s, m, "w0", 10, 10, 10, 10, 10, 10);
    }
    assertTrue(balance(s).isEmpty(), "a map is still running");
    finish(s, 11, "w0", 10, 10, 10, 10, 10, 10);

    CoScheduler.Decision d = balance(s).orElseThrow();

    assertFalse(d.moves().isEmpty());
    for (ReduceMove move : d.moves()) {
      assertEquals(60, move.shuffleId());
      assertEquals("w0", move.to().workerId(), "w0 holds 80 of each reduce's 120 bytes");
      assertEquals(placed.workerOf(move.reduceId()).orElseThrow(), move.from());
      assertEquals(Optional.of(move.to()), s.schedule().orElseThrow().workerOf(move.reduceId()));
    }
    assertEquals(d.result(), s.schedule().orElseThrow());
    long onW0 = d.result().assignments().stream().filter(a -> a.worker().workerId().equals("w0")).count();
    assertTrue(onW0 > 2 && onW0 <= 4, "w0 takes at most one round of two more than its share, has " + onW0);
    assertTrue(d.result().assignments().stream().filter(a -> a.worker().workerId().equals("w0"))
        .allMatch(a -> a.round() <= 1), "two slots: w0's reduces fill rounds 0 and 1");
    assertTrue(balance(s).isEmpty(), "the reduces are moved once");
  }

  @Test
  void balanceAtMapEnd_leavesShufflesWhoseReducesMayStartEarly_asPlaced() {
    ShuffleState s = shuffleStartingReducesAfterMaps(61, 2, 6, false);
    finish(s, 0, "w1", 10, 10, 10, 10, 10, 10);
    schedule(s).orElseThrow();
    finish(s, 1, "w0", 1000, 1000, 1000, 1000, 1000, 1000);
    assertTrue(balance(s).isEmpty());
  }

  @Test
  void balanceAtMapEnd_whenTheMasterIsToldNotTo_leavesTheShuffleAsPlaced() {
    CoScheduler off = new CoScheduler(0.5, 1, false, clock);
    ShuffleState s = shuffleStartingReducesAfterMaps(62, 2, 6, true);
    finish(s, 0, "w1", 10, 10, 10, 10, 10, 10);
    off.scheduleIfDue(s, LIVE, id -> Optional.empty()).orElseThrow();
    finish(s, 1, "w0", 1000, 1000, 1000, 1000, 1000, 1000);
    s.mapsDoneIfAll(clock.millis());
    assertTrue(off.balanceAtMapEnd(s, LIVE, id -> Optional.empty()).isEmpty());
  }
}
