package org.scache.hadoop.frq;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.JobID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.scache.hadoop.frq.JobHistoryReader.HistoryJob;

/** The FRQ command's arguments, its answers to what it cannot read, and its report of one job. */
class FrqCommandTest {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) {
    return FrqCommand.run(args, new Configuration(false), new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  @Test
  void noJob_orBadOption_isAUsageError() {
    assertEquals(FrqCommand.USAGE, run());
    assertEquals(FrqCommand.USAGE, run("--link-mbit", "0", "job_1_0001"));
    assertEquals(FrqCommand.USAGE, run("--link-mbit", "fast", "job_1_0001"));
    assertEquals(FrqCommand.USAGE, run("--nodes"));
    assertEquals(FrqCommand.USAGE, run("--colour", "job_1_0001"));
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("unknown option --colour"), err.toString());
    assertEquals(FrqCommand.OK, run("--help"));
  }

  @Test
  void historyThatIsNotAJob_orAJobWithoutHistory_exitsOne_namingIt(@TempDir Path dir) throws Exception {
    Path notHistory = Files.writeString(dir.resolve("x.jhist"), "not a history\n");
    assertEquals(FrqCommand.UNREADABLE, run(notHistory.toString()));
    assertTrue(err.toString(StandardCharsets.UTF_8).contains(notHistory.toString()), err.toString());

    err.reset();
    Configuration conf = new Configuration(false);
    conf.set("mapreduce.jobhistory.done-dir", dir.resolve("done").toString());
    conf.set("mapreduce.jobhistory.intermediate-done-dir", dir.resolve("intermediate").toString());
    assertEquals(FrqCommand.UNREADABLE, FrqCommand.run(new String[] {"job_1700000000000_0042"}, conf,
        new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8)));
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("no history file of job_1700000000000_0042"),
        err.toString());
  }

  @Test
  void report_ofAHadoopJobOnSlowLinks_predictsSCacheShorter_andSaysWhichBound() {
    FrqJob job = new FrqJob(Shuffle.HADOOP, 4L << 30, 4L << 30, 4, 2.0, 100, 20, 200);
    HistoryJob read = new HistoryJob(new JobID("1700000000000", 1), "sort", job, 32, 8, 3);

    String report = FrqCommand.report(read, FrqCommand.Settings.parse(new String[] {"--link-mbit", "40", "x"}));

    assertTrue(report.contains("job_1700000000000_0001 (sort) ran on Hadoop shuffle: 32 maps in 4 waves, 8 reduces in "
        + "1 round,"), report);
    assertTrue(report.contains("links of 40 Mbit/s on 3 nodes"), report);
    assertTrue(report.contains("the links are the bound"), report);
    FrqFit fit = FrqFit.of(job, FrqCommand.shuffleSpeed(40, 3));
    assertTrue(report.contains(String.format(java.util.Locale.ROOT, "%.1f s on Hadoop's shuffle, %.1f s through SCache",
        fit.predictedSeconds(Shuffle.HADOOP), fit.predictedSeconds(Shuffle.SCACHE))), report);
    assertTrue(fit.predictedSeconds(Shuffle.SCACHE) < fit.predictedSeconds(Shuffle.HADOOP));
    String fastLinks = FrqCommand.report(read, FrqCommand.Settings.parse(new String[] {"--link-mbit", "100", "x"}));
    assertTrue(fastLinks.contains("the maps are the bound"), fastLinks);
  }

  @Test
  void shuffleSpeed_isTheLinksTogether_overTheShareThatCrossesOne() {
    assertEquals(3 * 100e6 / 8 * 3 / 2, FrqCommand.shuffleSpeed(100, 3), 1e-6);
    assertEquals(Double.POSITIVE_INFINITY, FrqCommand.shuffleSpeed(100, 1), "one node: nothing crosses a link");
    assertEquals(Double.POSITIVE_INFINITY, FrqCommand.shuffleSpeed(0, 3), "no link given: no limit");
  }
}
