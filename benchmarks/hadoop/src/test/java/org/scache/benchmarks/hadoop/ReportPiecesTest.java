package org.scache.benchmarks.hadoop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.apache.hadoop.mapreduce.JobID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.scache.benchmarks.harness.ByteSize;
import org.scache.benchmarks.harness.MachineSpeed;
import org.scache.benchmarks.harness.Stats;
import org.scache.benchmarks.harness.netns.ProcessCpuSampler;
import org.scache.benchmarks.harness.netns.StageCpu;
import org.scache.hadoop.frq.Shuffle;

/** The pieces of the demo's and the benchmark's reports, on made-up jobs (no cluster). */
class ReportPiecesTest {

  @Test
  void sizes_parseAndFormatInBinaryUnits() {
    assertEquals(256 * ByteSize.MIB, ByteSize.parse("256m"));
    assertEquals(ByteSize.GIB, ByteSize.parse("1G"));
    assertEquals(1536 * ByteSize.MIB, ByteSize.parse("1.5g"));
    assertEquals(512 * ByteSize.KIB, ByteSize.parse("512KiB"));
    assertEquals(1000, ByteSize.parse("1000"));
    assertThrows(IllegalArgumentException.class, () -> ByteSize.parse("lots"));
    assertEquals("256 MiB", ByteSize.format(256 * ByteSize.MIB));
    assertEquals("1.5 GiB", ByteSize.format(1536 * ByteSize.MIB));
    assertEquals("1g", ByteSize.tag(ByteSize.GIB));
  }

  @Test
  void medianAndRatio() {
    assertEquals(2.0, Stats.median(List.of(3.0, 1.0, 2.0)));
    assertEquals(2.5, Stats.median(List.of(4.0, 1.0, 2.0, 3.0)));
    assertTrue(Double.isNaN(Stats.median(List.of())));
    assertTrue(Double.isNaN(Stats.ratio(1, 0)));
  }

  @Test
  void options_takeDefaultsAndRejectUnknownOnes() {
    Options o = new Options("test", new Options.Option("size", "256m", "input"), new Options.Option("reps", "3", "n"));
    assertTrue(o.parse(new String[] {"--reps", "5"}));
    assertEquals("256m", o.get("size"));
    assertEquals(5, o.getInt("reps"));
    assertThrows(IllegalArgumentException.class, () -> o.parse(new String[] {"--nope", "1"}));
  }

  @Test
  void figures_stageTimesShuffleWaitsAndPlacement() {
    JobFigures j = job(Shuffle.HADOOP, 4, 3, 10_000, 5_000);
    assertEquals(4, j.maps());
    assertEquals(3, j.reduces());
    assertEquals(List.of(5.0, 5.0, 5.0), j.shuffleWaitSeconds());
    assertTrue(j.mapStageSeconds() > 0);
    assertEquals("n/a", PairReport.placed(j));
    RunPair pair = new RunPair(ByteSize.GIB, 1, true, run(j, 130, 135),
        run(job(Shuffle.SCACHE, 4, 3, 8_000, 500), 132, 128));
    assertEquals(0.1, pair.shuffleWaitRatio(), 1e-9);
    String summary = BenchmarkSummary.format(List.of(pair));
    assertTrue(summary.contains("1 GiB"), summary);
    assertTrue(summary.contains("shuffle wait target met"), summary);
    assertTrue(summary.contains("CPU seconds, medians"), summary);
    assertTrue(summary.contains("20.0      8.0     40.0"), "map, reduce and machine CPU of each job: " + summary);
    assertTrue(BenchmarkSummary.csv(List.of(pair)).lines().count() == 3);
    assertFalse(summary.contains("the machine's speed changed"), summary);
  }

  @Test
  void summary_marksAPairWhoseMachineChangedUnderIt() {
    RunPair pair = new RunPair(ByteSize.GIB, 2, false, run(job(Shuffle.HADOOP, 4, 3, 10_000, 5_000), 184, 180),
        run(job(Shuffle.SCACHE, 4, 3, 8_000, 500), 131, 140));

    assertEquals(184.0 / 131, pair.machineSpeedSpread(), 1e-9);
    String summary = BenchmarkSummary.format(List.of(pair));
    assertTrue(summary.contains("repetition 2: the machine's speed changed by 40% during the pair (Hadoop's job "
        + "184-180 ms, SCache's 131-140 ms)"), summary);
    List<String> csv = BenchmarkSummary.csv(List.of(pair)).lines().toList();
    assertTrue(csv.get(1).startsWith("1073741824,2,HADOOP,") && csv.get(1).endsWith(",184,180"), csv.get(1));
    assertTrue(csv.get(2).startsWith("1073741824,2,SCACHE,") && csv.get(2).endsWith(",131,140"), csv.get(2));
  }

  private static TerasortRunner.SortRun run(JobFigures job, double speedBeforeMs, double speedAfterMs) {
    return new TerasortRunner.SortRun(job, WorkerTraffic.NONE, new MachineSpeed.Measured(speedBeforeMs, speedBeforeMs),
        new MachineSpeed.Measured(speedAfterMs, speedAfterMs));
  }

  @Test
  void containerLogs_jvmUpIsTheFirstLineOfTheContainersSyslog_inWhicheverOfItsDirectoriesHoldsIt(@TempDir Path dir)
      throws Exception {
    // the same container's directories in the NodeManager's other log directories and in its local directory
    for (String other : List.of("nm-0-logs-0", "nm-0-logs-2", "nm-0-local/usercache/root/appcache")) {
      Files.createDirectories(dir.resolve(other).resolve("application_1_0001").resolve("container_1_0001_01_000003"));
    }
    Path container = dir.resolve("nm-0-logs-1").resolve("application_1_0001").resolve("container_1_0001_01_000003");
    Files.createDirectories(container);
    Files.writeString(container.resolve("syslog"), "2026-11-22 17:40:05,123 INFO [main] org.apache.hadoop.mapred."
        + "YarnChild: started\n2026-11-22 17:40:09,000 INFO [main] later\n2026-11-22 17:40:11,500 INFO [main] "
        + "org.apache.hadoop.mapred.ReduceTask: Using ShuffleConsumerPlugin: org.scache.hadoop.reduce.Scache\n");
    long expected = java.time.LocalDateTime.of(2026, 11, 22, 17, 40, 5, 123_000_000)
        .atZone(java.time.ZoneId.systemDefault()).toInstant().toEpochMilli();
    assertEquals(expected, ContainerLogs.read(dir, "container_1_0001_01_000003").jvmUp());
    assertEquals(new ContainerLogs.TaskLog(expected, expected + 6_377), ContainerLogs.read(dir,
        "container_1_0001_01_000003"), "the shuffle begins where ReduceTask names its consumer");
    AttemptSpan logged = new AttemptSpan(false, 0, 0, expected - 3_000, expected + 9_000, expected + 12_000, true, "n1",
        "c", 0).withTaskLog(ContainerLogs.read(dir, "container_1_0001_01_000003"));
    assertEquals(9_377, logged.launchMs());
    assertEquals(2_623, logged.shuffleItselfMs());
    assertEquals(ContainerLogs.TaskLog.UNKNOWN, ContainerLogs.read(dir, "container_1_0001_01_000004"),
        "no such container");
    assertEquals(0, ContainerLogs.firstTime("not a time"));
    AttemptSpan reduce = new AttemptSpan(false, 0, 0, 1_000, 9_000, 12_000, true, "n1", "c", 0);
    assertEquals(-1, reduce.shuffleAfterJvmMs(), "unknown until the JVM's start is known");
    assertEquals(2_500, reduce.withTaskLog(new ContainerLogs.TaskLog(6_500, 0)).shuffleAfterJvmMs());
    assertEquals(8_000, reduce.shuffleWaitMs());
  }

  @Test
  void timelineChart_isAPngWithBothPanels(@TempDir Path dir) throws Exception {
    Path png = dir.resolve("timeline.png");
    TimelineChart.write(png, "test", List.of(job(Shuffle.HADOOP, 8, 6, 20_000, 9_000),
        job(Shuffle.SCACHE, 8, 6, 15_000, 300)));
    BufferedImage image = ImageIO.read(png.toFile());
    assertEquals(1400, image.getWidth());
    assertTrue(image.getHeight() > 200);
    assertArrayEquals(new byte[] {(byte) 0x89, 'P', 'N', 'G'}, java.util.Arrays.copyOf(Files.readAllBytes(png), 4));
  }

  /** A made-up job: maps of 3 s in two waves, then reduces that each wait {@code shuffleWaitMs} in their shuffle. */
  private static JobFigures job(Shuffle shuffle, int maps, int reduces, long reduceMs, long shuffleWaitMs) {
    long submit = 1_000_000;
    List<AttemptSpan> attempts = new ArrayList<>();
    long lastMap = 0;
    for (int m = 0; m < maps; m++) {
      long start = submit + 2_000 + (m / 4) * 3_000L;
      attempts.add(new AttemptSpan(true, m, 0, start, 0, start + 3_000, true, "n" + m % 3));
      lastMap = Math.max(lastMap, start + 3_000);
    }
    if (maps > 1) {
      attempts.add(new AttemptSpan(true, 0, 1, submit + 2_500, 0, submit + 4_000, false, "n1"));
    }
    long lastReduce = lastMap;
    for (int r = 0; r < reduces; r++) {
      long start = lastMap + 1_000 - shuffleWaitMs + reduceMs / 10;
      attempts.add(new AttemptSpan(false, r, 0, start, start + shuffleWaitMs, start + reduceMs, true, "n" + r % 3));
      lastReduce = Math.max(lastReduce, start + reduceMs);
    }
    return new JobFigures(shuffle, new JobID("1", 1), submit, lastReduce + 500, submit + 2_000, lastMap, lastReduce,
        attempts, shuffle == Shuffle.HADOOP ? 300 * ByteSize.MIB : 40 * ByteSize.KIB, 0, 0, 0, 0, 0,
        new CpuUse(20_000, 8_000, 40_000), FirstMapWave.NONE);
  }

  @Test
  void machineCpu_procStatCpuLine_countsEveryBusyFieldButIdleAndIowait() {
    // user nice system idle iowait irq softirq steal guest guest_nice, in 1/100 s
    assertEquals(10 * (100 + 1 + 50 + 3 + 4 + 5), MachineCpu.busyMillis("cpu  100 1 50 9000 70 3 4 5 20 0"));
  }

  @Test
  void cpuUse_outsideTheTasks_isTheMachinesLessTheTasks() {
    CpuUse cpu = new CpuUse(20_000, 8_000, 40_000);
    assertEquals(12.0, cpu.outsideTasksSeconds(), 1e-9);
    assertTrue(Double.isNaN(CpuUse.ofTasks(20_000, 8_000).outsideTasksSeconds()), "the machine's CPU not known");
  }

  @Test
  void cpuRoles_tellMapFromReduceTasksAndTheWorkerFromItsNodeManager() {
    ProcessCpuSampler.Roles roles = NetnsBenchmark.ROLES;
    String child = "java -Xmx400m -cp a:b org.apache.hadoop.mapred.YarnChild 10.0.0.2 41234 ";
    assertEquals("map tasks", roles.of(child + "attempt_1795765469003_0002_m_000003_0 3"));
    assertEquals("reduce tasks", roles.of(child + "attempt_1795765469003_0002_r_000011_0 40"));
    assertEquals("application masters", roles.of("java -cp x org.scache.hadoop.appmaster.ScacheAppMaster"));
    String nodeManager = roles.of("java -cp x org.apache.hadoop.yarn.server.nodemanager.NodeManager");
    assertEquals("NodeManagers", nodeManager);
    assertEquals("SCache workers (in NMs)", roles.ofThread(nodeManager, "scache-worker-io-1"));
    assertEquals("NodeManagers", roles.ofThread(nodeManager, "ShuffleHandler Netty Worker #1"));
    assertNull(roles.of("java -cp /root/.m2/repository/org/apache/hadoop/x.jar org.codehaus.plexus.Launcher"));
  }

  @Test
  void stageCpu_tablesEachProcessesMediansWithItsJitShare() {
    ProcessCpuSampler.Use mapWork = new ProcessCpuSampler.Use("map tasks", ProcessCpuSampler.Part.WORK);
    ProcessCpuSampler.Use mapJit = new ProcessCpuSampler.Use("map tasks", ProcessCpuSampler.Part.JIT);
    List<StageCpu> runs = List.of(
        new StageCpu("HADOOP", Map.of(mapWork, 100.0, mapJit, 50.0), Map.of()),
        new StageCpu("HADOOP", Map.of(mapWork, 120.0, mapJit, 70.0), Map.of()),
        new StageCpu("SCACHE", Map.of(mapWork, 90.0, mapJit, 40.0), Map.of()));
    String table = StageCpu.table("  ", List.of("HADOOP", "SCACHE"), runs);
    String line = table.lines().filter(l -> l.contains("map tasks")).findFirst().orElseThrow();
    String number = "\\s+%s \\(%s\\)";
    String expected = "\\s+map tasks" + number.formatted("170\\.0", "60\\.0") + number.formatted("130\\.0", "40\\.0")
        + number.formatted("0\\.0", "0\\.0").repeat(2) + "\\s*";
    assertTrue(line.matches(expected), table);
    assertTrue(runs.get(2).csv("x").contains("x,map,map tasks,jit,40.00"), runs.get(2).csv("x"));
  }
}
