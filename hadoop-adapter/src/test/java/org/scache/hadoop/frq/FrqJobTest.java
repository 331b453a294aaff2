package org.scache.hadoop.frq;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The FRQ model's inputs taken from a job's task attempts, and what the fitted model predicts of the job. */
class FrqJobTest {
  private static final long SUBMIT = 1_000_000;

  @Test
  void of_takesWavesFromTheMostMapsAtOnce_andReduceWorkAfterEachShuffle() {
    List<TaskSpan> attempts = new ArrayList<>();
    for (int m = 0; m < 8; m++) { // two at a time, 10 s each: 4 waves, 40 s
      long start = SUBMIT + 1_000 + (m / 2) * 10_000L;
      attempts.add(new TaskSpan(true, start, 0, start + 10_000, true));
    }
    long lastMap = SUBMIT + 41_000;
    for (int r = 0; r < 4; r++) { // all four at once; each works 6 s after its shuffle
      long start = lastMap + 1_000;
      attempts.add(new TaskSpan(false, start, start + 4_000, start + 10_000, true));
    }

    FrqJob job = FrqJob.of(Shuffle.HADOOP, 400, 400, attempts, SUBMIT, lastMap + 12_000, 0);

    assertEquals(4, job.mapWaves());
    assertEquals(6.0, job.reduceWorkSeconds(), 1e-9);
    assertEquals(40.0, job.mapStageSeconds(), 1e-9);
    assertEquals(1.0, job.startSeconds(), 1e-9);
    assertEquals(53.0, job.jobSeconds(), 1e-9);
    assertEquals(1, job.reduceRounds());
    FrqModel m = job.fit(100);
    assertEquals(10, m.mapSpeed(), 1e-9);
    assertEquals(1, m.conversionRate(), 1e-9);
    assertEquals(40 + 6 + 0.6 * 4, m.jobSeconds(Shuffle.HADOOP), 1e-9);
  }

  @Test
  void of_countsFailedMapAttemptsInTheStage_butOnlySucceededReducesInTheWork() {
    List<TaskSpan> attempts = List.of(
        new TaskSpan(true, SUBMIT + 1_000, 0, SUBMIT + 3_000, false), // failed, retried below
        new TaskSpan(true, SUBMIT + 3_000, 0, SUBMIT + 11_000, true),
        new TaskSpan(false, SUBMIT + 11_000, SUBMIT + 12_000, SUBMIT + 20_000, false),
        new TaskSpan(false, SUBMIT + 20_000, SUBMIT + 21_000, SUBMIT + 25_000, true));

    FrqJob job = FrqJob.of(Shuffle.SCACHE, 100, 100, attempts, SUBMIT, SUBMIT + 26_000, Double.NaN);

    assertEquals(10.0, job.mapStageSeconds(), 1e-9, "first map attempt's start to the last successful map's end");
    assertEquals(4.0, job.reduceWorkSeconds(), 1e-9, "only the successful reduce's work after its shuffle");
    assertEquals(0, job.reduceLaunchSeconds(), "an unknown launch is no launch term");
  }

  @Test
  void predictedRatio_fromAHadoopJob_isSCachesTimeOverHadoopsWithThePapersK() {
    FrqJob hadoop = new FrqJob(Shuffle.HADOOP, 400, 400, 4, 1.0, 40, 6, 53);
    FrqFit fit = FrqFit.of(hadoop, 100);

    assertEquals((1 + 40 + 6 + 0.6 * 4) / 53.0 - 1, fit.error(), 1e-9);
    // SCache from the Hadoop job alone: one wave's shuffle of 4 s overlaps a quarter (eq. 10), with K = 0.5
    assertEquals((1 + 40 + 6 + 0.5 * 1) / (1 + 40 + 6 + 0.6 * 4), fit.predictedRatio(), 1e-9);
    // without the reduces' launch there is no launch term: the paper's model
    assertEquals(fit.error(), fit.paperModelError(), 1e-12);
  }

  @Test
  void mostAtOnce_countsAnAttemptEndingAsAnotherStartsOnce() {
    List<TaskSpan> back = List.of(new TaskSpan(true, 0, 0, 10, true), new TaskSpan(true, 10, 0, 20, true));
    List<TaskSpan> overlapping = List.of(new TaskSpan(true, 0, 0, 10, true), new TaskSpan(true, 9, 0, 20, true));

    assertEquals(1, FrqJob.mostAtOnce(back));
    assertEquals(2, FrqJob.mostAtOnce(overlapping));
  }
}
