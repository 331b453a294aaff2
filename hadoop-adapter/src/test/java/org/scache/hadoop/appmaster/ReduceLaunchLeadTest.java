package org.scache.hadoop.appmaster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
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
  void theLeadGrowsByTheMedianStartUpOfTheFinishedMapsJvms() {
    List<MapRun> lastWave = List.of(new MapRun(at(-60), at(-40), 9_000), new MapRun(at(-40), at(-20), 12_000),
        new MapRun(at(-41), at(-21), 10_000), new MapRun(at(0), 0));
    assertEquals(10_000, MapStageForecast.medianJvmStartup(lastWave));
    clock.advance(Duration.ofSeconds(4));
    assertTrue(lead.holdsFor(lastWave), "16 s to go, lead 10 s + 5 s");
    clock.advance(Duration.ofSeconds(1));
    assertFalse(lead.holdsFor(lastWave), "15 s to go");
  }

  @Test
  void mapsThatReportedNoStartUp_leaveTheLeadAtItsMargin() {
    assertEquals(0, MapStageForecast.medianJvmStartup(List.of(finished(at(-60), 20), new MapRun(at(-30), 0, 7_000))),
        "a running map's figure is not counted, nor a finished map's missing one");
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
