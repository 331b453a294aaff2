package org.scache.benchmarks.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.mapreduce.JobID;
import org.junit.jupiter.api.Test;

/** The FRQ model against the paper's Tables I and II, and its fit from a job's history. */
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
  void fitFromHistory_takesWavesFromTheMostMapsAtOnce_andReduceWorkAfterEachShuffle() {
    long submit = 1_000_000;
    List<AttemptSpan> attempts = new ArrayList<>();
    for (int m = 0; m < 8; m++) { // two at a time, 10 s each: 4 waves, 40 s
      long start = submit + 1_000 + (m / 2) * 10_000L;
      attempts.add(new AttemptSpan(true, m, 0, start, 0, start + 10_000, true, "n" + m % 2));
    }
    long lastMap = submit + 41_000;
    for (int r = 0; r < 4; r++) { // all four at once; each works 6 s after its shuffle
      long start = lastMap + 1_000;
      attempts.add(new AttemptSpan(false, r, 0, start, start + 4_000, start + 10_000, true, "n" + r % 2));
    }
    JobFigures job = new JobFigures(Shuffle.HADOOP, new JobID("1", 1), submit, lastMap + 12_000, submit + 1_000,
        lastMap, lastMap + 11_000, attempts, 0, 0, 0, 0, 0, 400, new CpuUse(0, 0, 0), FirstMapWave.NONE);

    FrqRun run = FrqRun.of(job, 400);
    assertEquals(4, run.mapWaves());
    assertEquals(6.0, run.reduceWorkSeconds(), 1e-9);
    assertEquals(40.0, run.mapStageSeconds(), 1e-9);
    FrqModel m = run.fit(100);
    assertEquals(10, m.mapSpeed(), 1e-9);
    assertEquals(1, m.conversionRate(), 1e-9);
    assertEquals(40 + 6 + 0.6 * 4, m.jobSeconds(Shuffle.HADOOP), 1e-9);
    assertEquals(1.0, run.startSeconds(), 1e-9);
    FrqRun back = FrqRun.ofCsv(List.of("shuffle", "job_s", "map_stage_s", "input_bytes", "shuffle_bytes", "map_waves",
        "start_s", "reduce_work_s", "reduce_launch_s", "reduce_rounds"), ("HADOOP," + String.format(
        java.util.Locale.ROOT, "%.3f,%.3f,", run.jobSeconds(), run.mapStageSeconds()) + run.csvFields()).split(","));
    assertEquals(run, back);
    FrqRun older = FrqRun.ofCsv(List.of("shuffle", "job_s", "map_stage_s", "input_bytes", "shuffle_bytes", "map_waves",
        "start_s", "reduce_work_s"), "HADOOP,53,40,400,400,4,1,6".split(","));
    assertEquals(0, older.reduceLaunchSeconds(), "a CSV written before the launch term has none");
    assertEquals(1, older.reduceRounds());

    FrqRun scache = new FrqRun(Shuffle.SCACHE, 400, 400, 4, 1.0, 36, 5, 44);
    String report = FrqReport.format(FrqReport.fit(run, 100), FrqReport.fit(scache, 100));
    assertTrue(report.contains("from the Hadoop job alone"), report);
    assertEquals((1 + 40 + 6 + 0.6 * 4) / 53.0 - 1, FrqReport.fit(run, 100).error(), 1e-9);
    // SCache from the Hadoop job alone: one wave's shuffle of 4 s overlaps a quarter (eq. 10), with K = 0.5
    assertEquals((1 + 40 + 6 + 0.5 * 1) / (1 + 40 + 6 + 0.6 * 4), FrqReport.predictedRatio(FrqReport.fit(run, 100)),
        1e-9);
    assertTrue(FrqReport.format(FrqReport.fit(run, Double.POSITIVE_INFINITY),
        FrqReport.fit(scache, Double.POSITIVE_INFINITY)).contains("no limit"));
    // without the reduces' logs there is no launch term: the paper's model
    assertEquals(FrqReport.fit(run, 100).error(), FrqReport.fit(run, 100).paperModelError(), 1e-12);
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

  @Test
  void fitFromHistory_takesTheLaunchFromTheReducesLogs_andTheRoundsFromTheMostReducesAtOnce() {
    long submit = 1_000_000;
    List<AttemptSpan> attempts = new ArrayList<>();
    attempts.add(new AttemptSpan(true, 0, 0, submit + 1_000, 0, submit + 11_000, true, "n0"));
    long lastMap = submit + 11_000;
    for (int r = 0; r < 4; r++) { // two at a time, two rounds of 10 s; each launch 3 s, shuffle 1 s, work 6 s
      long start = lastMap + (r / 2) * 10_000L;
      attempts.add(new AttemptSpan(false, r, 0, start, start + 4_000, start + 10_000, true, "n" + r % 2, "c" + r,
          start + 1_000, start + 3_000));
    }
    JobFigures job = new JobFigures(Shuffle.SCACHE, new JobID("1", 1), submit, lastMap + 20_000, submit + 1_000,
        lastMap, lastMap + 20_000, attempts, 0, 0, 0, 0, 0, 100, new CpuUse(0, 0, 0), FirstMapWave.NONE);
    FrqRun run = FrqRun.of(job, 100);
    assertEquals(3.0, run.reduceLaunchSeconds(), 1e-9);
    assertEquals(2, run.reduceRounds());
    FrqReport.Fitted fitted = FrqReport.fit(run, Double.POSITIVE_INFINITY);
    // start 1 + maps 10 + two launches of 3 + work 12: 29 s of 31 measured; the paper's model: 23 s
    assertEquals(29.0 / 31 - 1, fitted.error(), 1e-9);
    assertEquals(23.0 / 31 - 1, fitted.paperModelError(), 1e-9);
    String line = FrqReport.launchTerm(fitted, job, fitted, job);
    assertTrue(line.contains("(3.0 s and 3.0 s from a reducer's start"), line);
    assertTrue(line.contains("off by -25.8% and -25.8% here, with it -6.5% and -6.5%"), line);
  }
}
