package org.scache.hadoop.frq;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The FRQ model against the paper's Tables I and II, its two cases and the launch term. */
class FrqModelTest {
  private static final double GB = 1;

  @Test
  void reproducesTableI_inHouseCluster_scacheShuffleBound() {
    for (double[] row : new double[][] {
        // D, N, T_map, T_shuffle, T_P (SCache), T_reduce (SCache), T_job (SCache), T_reduce (Hadoop), T_job (Hadoop)
        {16, 2, 24.62, 34.04, 21.73, 26.87, 51.48, 36.43, 61.04},
        {32, 4, 49.23, 68.09, 31.16, 47.58, 96.81, 72.85, 122.08},
        {48, 6, 73.85, 102.13, 40.59, 68.29, 142.14, 109.28, 183.12},
        {64, 8, 98.46, 136.17, 50.02, 89.01, 187.47, 145.70, 244.16}}) {
      FrqModel m = new FrqModel(row[0] * GB, 1, row[1], 0.65, 1, 0.47);
      assertEquals(FrqModel.Case.SHUFFLE_BOUND, m.scacheCase());
      assertTable(m, row);
    }
  }

  @Test
  void reproducesTableII_ec2Cluster_scacheMapBound() {
    for (double[] row : new double[][] {
        {128, 5, 111.30, 91.43, 18.29, 96.81, 208.12, 142.53, 253.83},
        {256, 5, 222.61, 182.86, 36.57, 193.63, 416.24, 285.06, 507.67},
        {384, 5, 333.91, 274.29, 54.86, 290.44, 624.36, 427.59, 761.50}}) {
      FrqModel m = new FrqModel(row[0] * GB, 1, row[1], 1.15, 1.46, 1.4);
      assertEquals(FrqModel.Case.MAP_BOUND, m.scacheCase());
      assertTable(m, row);
    }
  }

  private static void assertTable(FrqModel m, double[] row) {
    double cell = 0.011; // the tables round to two decimals, and the rounding carries one step
    assertEquals(row[2], m.mapSeconds(), cell);
    assertEquals(row[3], m.shuffleSeconds(), cell);
    assertEquals(row[4], m.overlapSeconds(Shuffle.SCACHE), cell);
    assertEquals(row[5], m.reduceSeconds(Shuffle.SCACHE), cell);
    assertEquals(row[6], m.jobSeconds(Shuffle.SCACHE), cell);
    assertEquals(row[3], m.overlapSeconds(Shuffle.HADOOP), cell);
    assertEquals(row[7], m.reduceSeconds(Shuffle.HADOOP), cell);
    assertEquals(row[8], m.jobSeconds(Shuffle.HADOOP), cell);
  }

  @Test
  void unlimitedLinks_predictTheSameJobForBothShuffles() {
    FrqModel m = new FrqModel(512, 1, 4, 8, 40, Double.POSITIVE_INFINITY);
    assertEquals(0, m.shuffleSeconds());
    assertEquals(m.jobSeconds(Shuffle.HADOOP), m.jobSeconds(Shuffle.SCACHE));
    assertEquals(64 + 12.8, m.jobSeconds(Shuffle.HADOOP), 1e-9);
  }

  @Test
  void theCase_isWhetherTheMapsMakeShuffleDataFasterThanTheLinksCarryIt() {
    // 4 waves of 25 s; the links carry half of what the maps make: the prefetch never pauses, and
    // what is left after the first three waves overlaps the reduces (Fig. 10a, eq. 9)
    FrqModel slowLinks = new FrqModel(100, 1, 4, 1, 10, 0.5);
    assertEquals(FrqModel.Case.SHUFFLE_BOUND, slowLinks.scacheCase());
    assertEquals(200 - 75, slowLinks.overlapSeconds(Shuffle.SCACHE), 1e-9);
    // links faster than the maps: each wave's data crosses during the next wave, the last one's after (eq. 10)
    FrqModel fastLinks = new FrqModel(100, 1, 4, 1, 10, 2);
    assertEquals(FrqModel.Case.MAP_BOUND, fastLinks.scacheCase());
    assertEquals(50.0 / 4, fastLinks.overlapSeconds(Shuffle.SCACHE), 1e-9);
    assertEquals(50.0, fastLinks.overlapSeconds(Shuffle.HADOOP), 1e-9);
  }

  @Test
  void parametersOutOfRange_areRefused() {
    assertThrows(IllegalArgumentException.class, () -> new FrqModel(0, 1, 1, 1, 1, 1));
    assertThrows(IllegalArgumentException.class, () -> new FrqModel(1, 1, 0.5, 1, 1, 1));
    assertThrows(IllegalArgumentException.class, () -> new FrqModel(1, 1, 1, Double.NaN, 1, 1));
  }

  @Test
  void theLaunchTerm_countsEachRoundOfReducesLaunchedAfterTheMaps_butTheFirstRoundAfterSeveralWaves() {
    FrqModel oneWave = new FrqModel(400, 1, 1, 10, 100, Double.POSITIVE_INFINITY, 8, 2);
    assertEquals(2, oneWave.launchRounds(), "both shuffles launch every round after a single wave of maps");
    assertEquals(40 + 16 + 4, oneWave.jobSeconds(Shuffle.HADOOP), 1e-9);
    FrqModel fiveWaves = new FrqModel(400, 1, 5, 10, 100, Double.POSITIVE_INFINITY, 8, 2);
    assertEquals(1, fiveWaves.launchRounds(),
        "Hadoop's slow start and SCache's launch lead launched the first round during the maps");
    assertEquals(8, fiveWaves.jobSeconds(Shuffle.SCACHE) - fiveWaves.withoutLaunch().jobSeconds(Shuffle.SCACHE), 1e-9,
        "one round's launch of 8 s");
    assertEquals(40 + 4, fiveWaves.withoutLaunch().jobSeconds(Shuffle.SCACHE), 1e-9);
    assertThrows(IllegalArgumentException.class, () -> new FrqModel(400, 1, 1, 10, 100, 1, -1, 1));
    assertThrows(IllegalArgumentException.class, () -> new FrqModel(400, 1, 1, 10, 100, 1, 1, 0));
  }
}
