package org.scache.hadoop.appmaster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.scache.common.testing.ManualClock;
import org.scache.hadoop.appmaster.MapStageForecast.MapRun;

class ReduceLaunchLeadTest {
  private final ManualClock clock = new ManualClock();
  private final ReduceLaunchLead lead = new ReduceLaunchLead(clock, 5_000);

  private long at(long secondsFromNow) {
    return clock.millis() + secondsFromNow * 1000;
  }

  private static MapRun finished(long launched, long seconds) {
    return new MapRun(launched, launched + seconds * 1000);
  }

  @Test
  void theLastMapEnds_atTheLatestLaunchOfAnUnfinishedMapPlusTheMedianOfTheFinishedMaps() {
    long now = clock.millis();
    List<MapRun> maps = List.of(finished(at(-60), 20), finished(at(-60), 30), finished(at(-60), 25),
        new MapRun(at(-10), 0), new MapRun(at(-4), 0));
    assertEquals(OptionalLong.of(now + 21_000), MapStageForecast.lastMapEnd(maps, now));
  }

  @Test
  void aMapStillToBeLaunchedEndsNowPlusTheMedian_andAMapPastTheMedianEndsNow() {
    long now = clock.millis();
    assertEquals(OptionalLong.of(now + 20_000),
        MapStageForecast.lastMapEnd(List.of(finished(at(-60), 20), new MapRun(0, 0)), now));
    assertEquals(OptionalLong.of(now),
        MapStageForecast.lastMapEnd(List.of(finished(at(-60), 20), new MapRun(at(-45), 0)), now));
    assertEquals(OptionalLong.empty(), MapStageForecast.lastMapEnd(List.of(new MapRun(at(-45), 0)), now));
  }

  @Test
  void reducesAreHeldUntilTheLastMapIsExpectedWithinTheLead_thenNeverAgain() {
    List<MapRun> lastWave = List.of(finished(at(-60), 20), finished(at(-40), 20), new MapRun(at(0), 0));
    assertTrue(lead.holdsFor(lastWave));
    clock.advance(Duration.ofSeconds(14));
    assertTrue(lead.holdsFor(lastWave), "6 s to go, lead 5 s");
    clock.advance(Duration.ofSeconds(1));
    assertFalse(lead.holdsFor(lastWave), "5 s to go");
    assertFalse(lead.holdsFor(List.of(finished(at(-60), 20), new MapRun(0, 0))),
        "a re-run map does not hold them again");
  }

  @Test
  void aRunningMapWithAPace_endsWhenItsProgressReachesTheEndAtThatPace_ifThatIsBeforeTheMedian() {
    long now = clock.millis();
    assertEquals(OptionalLong.of(now + 20_000),
        MapStageForecast.lastMapEnd(List.of(finished(at(-60), 30), MapRun.running(at(-10), at(45))), now),
        "a pace slower than the median");
    List<MapRun> maps = List.of(finished(at(-60), 30), MapRun.running(at(-10), at(4)), new MapRun(at(-8), 0));
    assertEquals(OptionalLong.of(now + 22_000), MapStageForecast.lastMapEnd(maps, now), "the paceless map sets it");
    assertEquals(OptionalLong.of(now + 4_000),
        MapStageForecast.lastMapEnd(List.of(finished(at(-60), 30), MapRun.running(at(-10), at(4))), now));
  }

  @Test
  void aMapsPace_isItsProgressSinceTheApplicationMasterFirstSawIt() {
    MapProgressRates rates = new MapProgressRates();
    long t0 = clock.millis();
    assertEquals(0, rates.expectedEnd("m", t0, 0.0), "no progress yet");
    assertEquals(0, rates.expectedEnd("m", t0, 0.2), "first seen");
    assertEquals(0, rates.expectedEnd("m", t0 + 1_000, 0.3), "watched too briefly");
    assertEquals(t0 + 4_000 + 12_000, rates.expectedEnd("m", t0 + 4_000, 0.4), "0.2 in 4 s, 0.6 to go");
    assertEquals(0, rates.expectedEnd("n", t0 + 4_000, 0.5));
    assertEquals(0, rates.expectedEnd("n", t0 + 8_000, 0.5), "a progress that has not moved");
    rates.retain(java.util.Set.of("n"));
    assertEquals(0, rates.expectedEnd("m", t0 + 9_000, 0.9), "a forgotten attempt is watched afresh");
  }

  @Test
  void theLeadGrowsByTheMedianStartUpOfTheFinishedMapsJvms() {
    List<MapRun> lastWave = List.of(MapRun.finished(at(-60), at(-40), 9_000, -1),
        MapRun.finished(at(-40), at(-20), 12_000, -1), MapRun.finished(at(-41), at(-21), 10_000, -1),
        new MapRun(at(0), 0));
    assertEquals(10_000, MapStageForecast.medianJvmStartup(lastWave));
    clock.advance(Duration.ofSeconds(4));
    assertTrue(lead.holdsFor(lastWave), "16 s to go, lead 10 s + 5 s");
    clock.advance(Duration.ofSeconds(1));
    assertFalse(lead.holdsFor(lastWave), "15 s to go");
  }

  @Test
  void mapsThatReportedNoStartUp_leaveTheLeadAtItsMargin() {
    List<MapRun> maps = List.of(finished(at(-60), 20), new MapRun(at(0), 0, 7_000, -1, 0));
    assertEquals(0, MapStageForecast.medianJvmStartup(maps),
        "a running map's figure is not counted, nor a finished map's missing one");
    clock.advance(Duration.ofSeconds(14));
    assertTrue(lead.holdsFor(maps), "6 s to go, lead 5 s");
    clock.advance(Duration.ofSeconds(1));
    assertFalse(lead.holdsFor(maps), "5 s to go");
  }

  /** Ten maps of a full wave, launched together, each {@code seconds} long and using {@code cpuSeconds}. */
  private List<MapRun> fullWave(long launchedAt, long seconds, long cpuSeconds) {
    List<MapRun> wave = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      wave.add(MapRun.finished(at(launchedAt), at(launchedAt + seconds), -1, cpuSeconds * 1000));
    }
    return wave;
  }

  @Test
  void aPartialLastWaveOnSharedCores_isForecastAtTheCoresTheFullWaveHad_sharedByFewerMaps() {
    long now = clock.millis();
    // ten maps shared two cores: each used 6 s of CPU in 30 s
    List<MapRun> maps = new ArrayList<>(fullWave(-30, 30, 6));
    for (int i = 0; i < 4; i++) {
      maps.add(new MapRun(now, 0));
    }
    assertEquals(OptionalLong.of(now + 12_000), MapStageForecast.lastMapEnd(maps, now),
        "four maps on two cores: half a core each, 6 s of CPU in 12 s");
    clock.advance(Duration.ofSeconds(6));
    assertEquals(OptionalLong.of(now + 12_000), MapStageForecast.lastMapEnd(maps, clock.millis()),
        "half of it used: 6 s to go");
    List<MapRun> paced = new ArrayList<>(fullWave(-36, 30, 6));
    for (int i = 0; i < 4; i++) {
      paced.add(MapRun.running(now, at(2)));
    }
    assertEquals(OptionalLong.of(clock.millis() + 2_000), MapStageForecast.lastMapEnd(paced, clock.millis()),
        "a pace that ends the maps sooner than their CPU does brings the end forward");
  }

  @Test
  void mapsThatEachHadACore_areForecastAtTheirCpuTime_inAFullWaveAndInAPartialOne() {
    long now = clock.millis();
    List<MapRun> full = new ArrayList<>(fullWave(-20, 20, 18));
    for (int i = 0; i < 10; i++) {
      full.add(new MapRun(now, 0));
    }
    assertEquals(OptionalLong.of(now + 20_000), MapStageForecast.lastMapEnd(full, now),
        "ten maps beside each other again: their measured time");
    List<MapRun> partial = new ArrayList<>(fullWave(-20, 20, 18));
    partial.add(new MapRun(now, 0));
    assertEquals(OptionalLong.of(now + 18_000), MapStageForecast.lastMapEnd(partial, now),
        "one map alone: a core, no more");
  }

  @Test
  void whileMapsWaitForContainersAndNoneHasFinished_reducesAreHeld() {
    assertTrue(lead.holdsFor(List.of(new MapRun(at(0), 0), new MapRun(0, 0))));
  }

  @Test
  void aJobWhoseMapsAllRunAndNoneHasFinished_hasNoForecastAndItsReducesAreNotHeld() {
    assertFalse(lead.holdsFor(List.of(new MapRun(at(-3), 0), new MapRun(at(-2), 0))));
  }

  @Test
  void aJobWithoutMapsDoesNotHoldItsReduces() {
    assertFalse(lead.holdsFor(List.of()));
  }
}
