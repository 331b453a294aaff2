package org.scache.benchmarks.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.mapreduce.JobID;
import org.junit.jupiter.api.Test;
import org.scache.hadoop.frq.FrqFit;
import org.scache.hadoop.frq.FrqJob;
import org.scache.hadoop.frq.FrqModel;
import org.scache.hadoop.frq.Shuffle;

/** The benchmarks' FRQ inputs from a measured job (the reduces' launch from their logs), runs.csv and the report. */
class FrqReportTest {
  @Test
  void ofFigures_roundTripsThroughRunsCsv_andFormatsBothJobs() {
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

    FrqJob run = FrqRuns.of(job, 400);
    assertEquals(4, run.mapWaves());
    assertEquals(6.0, run.reduceWorkSeconds(), 1e-9);
    assertEquals(40.0, run.mapStageSeconds(), 1e-9);
    FrqModel m = run.fit(100);
    assertEquals(10, m.mapSpeed(), 1e-9);
    assertEquals(1, m.conversionRate(), 1e-9);
    assertEquals(40 + 6 + 0.6 * 4, m.jobSeconds(Shuffle.HADOOP), 1e-9);
    assertEquals(1.0, run.startSeconds(), 1e-9);
    FrqJob back = FrqRuns.ofCsv(List.of("shuffle", "job_s", "map_stage_s", "input_bytes", "shuffle_bytes", "map_waves",
        "start_s", "reduce_work_s", "reduce_launch_s", "reduce_rounds"), ("HADOOP," + String.format(
        java.util.Locale.ROOT, "%.3f,%.3f,", run.jobSeconds(), run.mapStageSeconds())
            + FrqRuns.csvFields(run)).split(","));
    assertEquals(run, back);
    FrqJob older = FrqRuns.ofCsv(List.of("shuffle", "job_s", "map_stage_s", "input_bytes", "shuffle_bytes", "map_waves",
        "start_s", "reduce_work_s"), "HADOOP,53,40,400,400,4,1,6".split(","));
    assertEquals(0, older.reduceLaunchSeconds(), "a CSV written before the launch term has none");
    assertEquals(1, older.reduceRounds());

    FrqJob scache = new FrqJob(Shuffle.SCACHE, 400, 400, 4, 1.0, 36, 5, 44);
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
  void ofFigures_takesTheLaunchFromTheReducesLogs_andTheRoundsFromTheMostReducesAtOnce() {
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
    FrqJob run = FrqRuns.of(job, 100);
    assertEquals(3.0, run.reduceLaunchSeconds(), 1e-9);
    assertEquals(2, run.reduceRounds());
    FrqFit fitted = FrqReport.fit(run, Double.POSITIVE_INFINITY);
    // start 1 + maps 10 + two launches of 3 + work 12: 29 s of 31 measured; the paper's model: 23 s
    assertEquals(29.0 / 31 - 1, fitted.error(), 1e-9);
    assertEquals(23.0 / 31 - 1, fitted.paperModelError(), 1e-9);
    String line = FrqReport.launchTerm(fitted, job, fitted, job);
    assertTrue(line.contains("(3.0 s and 3.0 s from a reducer's start"), line);
    assertTrue(line.contains("off by -25.8% and -25.8% here, with it -6.5% and -6.5%"), line);
  }
}
