package org.scache.benchmarks.spark;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ReduceStageFloorTest {
  @Test
  void executorsCpuOverTheMachinesCores_boundsTheReduceStage_whereItExceedsTheLinkTime() {
    // 18 CPU s on 2 cores: 9 s; 50 MB at 100 Mbit/s: 4 s
    String line = SparkNetnsBenchmark.reduceStageFloor(18.0, 2, 50e6, 100, 12.0);
    assertTrue(line.contains("reduce stage floor 9.0 s, 0.75 of the sort shuffle's"), line);
    assertTrue(line.contains("over the machine's 2 cores 9.0 s"), line);
    assertTrue(line.contains("over its link 4.0 s"), line);
    assertTrue(line.endsWith(System.lineSeparator()), "one line of the summary");
  }

  @Test
  void bytesLeftAfterTheMapsAtTheLinkRate_boundTheReduceStage_whereTheyTakeLongerThanTheCpu() {
    // 100 MB at 40 Mbit/s: 20 s, against 10 s of CPU
    String line = SparkNetnsBenchmark.reduceStageFloor(20.0, 2, 100e6, 40, 30.0);
    assertTrue(line.contains("reduce stage floor 20.0 s, 0.67 of the sort shuffle's"), line);
  }

  @Test
  void unshapedLinks_leaveOnlyTheCpuTerm() {
    String line = SparkNetnsBenchmark.reduceStageFloor(8.0, 2, 100e6, 0, 8.0);
    assertTrue(line.contains("reduce stage floor 4.0 s, 0.50 of the sort shuffle's"), line);
    assertTrue(line.contains("over its link (unshaped)"), line);
  }
}
