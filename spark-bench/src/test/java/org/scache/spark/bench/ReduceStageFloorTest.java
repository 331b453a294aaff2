package org.scache.spark.bench;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ReduceStageFloorTest {
  @Test
  void reduceTasksCpuSpreadOverTheMachinesCores_isComparedWithTheSortShufflesReduceStage() {
    String line = SparkNetnsBenchmark.reduceStageFloor(16.0, 2, 12.8);
    assertTrue(line.contains("reduce stage floor 8.0 s"), line);
    assertTrue(line.contains("over the machine's 2 cores"), line);
    assertTrue(line.contains(": 0.63 of the sort shuffle's reduce stage"), line);
    assertTrue(line.endsWith(System.lineSeparator()), "one line of the summary");
  }
}
