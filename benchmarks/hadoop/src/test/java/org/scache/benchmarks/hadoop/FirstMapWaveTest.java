package org.scache.benchmarks.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class FirstMapWaveTest {
  @Test
  void theFirstWaveIsEveryMapStartedBeforeAnyMapFinished() {
    FirstMapWave wave = FirstMapWave.of(List.of(
        new FirstMapWave.Map(0, 30_000, 3_000),
        new FirstMapWave.Map(1_000, 41_000, 4_000),
        new FirstMapWave.Map(29_000, 49_000, 5_000), // started before the first map finished
        new FirstMapWave.Map(30_000, 50_000, 2_000))); // started as it finished: the second wave

    assertEquals(3, wave.maps());
    assertEquals(30.0, wave.meanSeconds(), 1e-9);
    assertEquals(4.0, wave.meanCpuSeconds(), 1e-9);
  }

  @Test
  void aJobWithoutMapsHasNoWave() {
    assertEquals(FirstMapWave.NONE, FirstMapWave.of(List.of()));
  }
}
