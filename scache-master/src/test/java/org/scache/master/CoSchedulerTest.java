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
    assertEquals(List.of(new ReduceMove(10, 0, LIVE.get(0), LIVE.get(1))), d.moves());
    assertEquals("w1", first.schedule().orElseThrow().assignments().get(0).worker().workerId(),
        "reduce 0 of the earlier shuffle now runs where the stage's reduce 0 runs");
  }

  @Test
  void mapOutputNotices_afterTheSchedule_goToTheAssignedWorkers_butNotToTheHolder() {
    ShuffleState s = shuffle(0, 2, 3, PartitionerKind.HASH, ShuffleSpec.NO_STAGE);
    finish(s, 0, "w0", 300, 200, 100);
    ShufflePlacement placed = schedule(s).orElseThrow().result();
    finish(s, 1, "w0", 30, 20, 10);
    Map<String, WorkerInfo> byId = new HashMap<>();
    LIVE.forEach(w -> byId.put(w.workerId(), w));
    List<MapOutputNotices.Notice> notices = MapOutputNotices.forFinishedMap(s, 1, 0,
        id -> Optional.ofNullable(byId.get(id)));
    int expected = 0;
    for (ReduceAssignment a : placed.assignments()) {
      if (!a.worker().workerId().equals("w0")) {
        expected++;
      }
    }
    assertEquals(expected, notices.stream().mapToInt(n -> n.blocks().size()).sum());
    for (MapOutputNotices.Notice n : notices) {
      assertFalse(n.to().workerId().equals("w0"));
      assertEquals("w0", n.holder().workerId());
      for (BlockSize b : n.blocks()) {
        assertEquals(n.to(), placed.assignments().get(b.blockId().reduceId()).worker());
      }
    }
  }
}
