package org.scache.hadoop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Random;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.io.IOUtils;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.map.TokenCounterMapper;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.reduce.IntSumReducer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.scache.common.testing.Await;

/**
 * Reduces of a job that shuffles through SCache start on the NodeManager the master placed them on,
 * where their input was prefetched during the map stage, on a MiniMRYarnCluster of three NodeManagers
 * that share one host name (so only the NodeManager identity tells them apart).
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ReducePlacementIT {
  private static final int REDUCES = 6;
  private static MiniScacheYarnCluster cluster;
  private static Path input;
  private static SortedMap<String, byte[]> hadoopOutput;

  @BeforeAll
  static void startCluster() throws Exception {
    // one container per NodeManager heartbeat, so the maps spread over the NodeManagers as on a busy cluster
    cluster = MiniScacheYarnCluster.forTests("reduce-placement", 3, conf -> conf.setBoolean(
        "yarn.scheduler.capacity.per-node-heartbeat.multiple-assignments-enabled", false));
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void skewedReduces_startOnTheirPreScheduledNodeManagers_andReadNothingRemote() throws Exception {
    Path input = skewedInput();
    SortedMap<String, byte[]> hadoop = hadoopOutput();

    Map<String, Long> before = cluster.workerStats();
    Ran scache = run("skewed-scache", input, true);
    Map<String, Long> after = cluster.workerStats();

    assertSameOutput(hadoop, scache.output);
    long onNode = scache.counters.findCounter(ScacheCounter.REDUCES_ON_SCHEDULED_NODE).getValue();
    long elsewhere = scache.counters.findCounter(ScacheCounter.REDUCES_ELSEWHERE).getValue();
    System.out.printf("PLACEMENT %d of %d reduces on their pre-scheduled NodeManager, %d elsewhere; worker reads: "
        + "%d local (%d prefetched), %d remote; %d freed on commit%n", onNode, REDUCES, elsewhere,
        delta(before, after, "read.local.blocks"), delta(before, after, "read.prefetched.blocks"),
        delta(before, after, "read.remote.blocks"), delta(before, after, "commit.freed.blocks"));
    // the counters count reduce attempts: a speculative attempt of a slow (skewed) reduce counts too
    assertTrue(onNode >= REDUCES, "every reduce started on the NodeManager it was placed on: " + onNode);
    assertEquals(0, elsewhere, "no reduce attempt started elsewhere");
    assertEquals(0, delta(before, after, "read.remote.blocks"), "no reduce read a block from another worker");
    assertTrue(delta(before, after, "prefetch.blocks") > 0, "workers prefetched blocks to the placed nodes");
    assertTrue(delta(before, after, "commit.freed.blocks") > 0,
        "the workers freed the reduces' blocks once the reduces had committed");
    assertEquals(scache.counters.findCounter(TaskCounter.REDUCE_SHUFFLE_BYTES).getValue(),
        scache.counters.findCounter(ScacheCounter.BYTES_READ).getValue(), "every shuffled byte came from SCache");
  }

  /**
   * The master stops once the maps are done and the reduces are placed, before any reduce starts: the
   * application master still launches the reduces (on the placement it already has), and every reduce
   * reads its whole input, prefetched or fetched from the workers of the placement, without the master.
   * Runs last: the cluster has no master afterwards.
   */
  @Test
  @Order(Integer.MAX_VALUE)
  void masterStopsBetweenPlacementAndReduceStart_jobStillSucceedsWithTheSameOutput() throws Exception {
    Path input = skewedInput();
    SortedMap<String, byte[]> hadoop = hadoopOutput();

    Job job = job("master-loss-scache", input, true);
    job.submit();
    String appId = org.apache.hadoop.mapreduce.TypeConverter.toYarn(job.getJobID()).getAppId().toString();
    Await.until(() -> {
      try {
        assertFalse(job.isComplete(), "the job ended before its maps finished and its reduces were placed");
        return job.mapProgress() >= 1.0f && placed(appId);
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }, Duration.ofMinutes(5), "maps finish and reduces are placed");
    cluster.master().close();
    System.out.println("MASTER-LOSS master stopped after the maps and the placement of " + appId);

    assertTrue(job.waitForCompletion(false), () -> "job failed after the master stopped: " + failureInfo(job));
    assertSameOutput(hadoop, readOutput(cluster.workDir().resolve("out-master-loss-scache"), cluster.jobConf()));
    Counters counters = job.getCounters();
    System.out.printf("MASTER-LOSS %d reduces on their pre-scheduled NodeManager, %d elsewhere%n",
        counters.findCounter(ScacheCounter.REDUCES_ON_SCHEDULED_NODE).getValue(),
        counters.findCounter(ScacheCounter.REDUCES_ELSEWHERE).getValue());
    assertEquals(counters.findCounter(TaskCounter.REDUCE_SHUFFLE_BYTES).getValue(),
        counters.findCounter(ScacheCounter.BYTES_READ).getValue(), "every shuffled byte came from SCache");
  }

  private static boolean placed(String appId) {
    try {
      cluster.placement(appId, TaskScacheClient.SHUFFLE_ID);
      return true;
    } catch (org.scache.common.ScacheException e) {
      return false;
    }
  }

  /** Both tests' input: six files of skewed words, written once. */
  private static Path skewedInput() throws IOException {
    if (input == null) {
      input = writeSkewedWords("skewed-in", 6, 15_000);
    }
    return input;
  }

  /** What Hadoop's shuffle makes of {@link #skewedInput()}, run once for both tests. */
  private static SortedMap<String, byte[]> hadoopOutput() throws Exception {
    if (hadoopOutput == null) {
      hadoopOutput = run("skewed-hadoop", skewedInput(), false).output;
    }
    return hadoopOutput;
  }

  private static long delta(Map<String, Long> before, Map<String, Long> after, String key) {
    return after.getOrDefault(key, 0L) - before.getOrDefault(key, 0L);
  }

  private record Ran(SortedMap<String, byte[]> output, Counters counters) {}

  private static Ran run(String name, Path input, boolean scache) throws Exception {
    Job job = job(name, input, scache);
    assertTrue(job.waitForCompletion(false), () -> "job " + name + " failed: " + failureInfo(job));
    return new Ran(readOutput(cluster.workDir().resolve("out-" + name), cluster.jobConf()), job.getCounters());
  }

  private static Job job(String name, Path input, boolean scache) throws Exception {
    JobConf conf = cluster.jobConf();
    if (scache) {
      assertTrue(ScacheJob.enable(conf), "SCache is reachable");
      // every reduce waits the whole placement delay for its node, as one would on a slow network, however
      // little input it has: what is tested is that YARN's locality gets each reduce its node
      conf.setLong(MapReduceOptions.PLACEMENT_REMOTE_READ_RATE.key(), 0);
    }
    Path out = cluster.workDir().resolve("out-" + name);
    Job job = Job.getInstance(conf, name);
    job.setJarByClass(ReducePlacementIT.class);
    job.setMapperClass(TokenCounterMapper.class);
    job.setReducerClass(IntSumReducer.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(IntWritable.class);
    job.setNumReduceTasks(REDUCES);
    FileInputFormat.addInputPath(job, new org.apache.hadoop.fs.Path(input.toUri()));
    FileOutputFormat.setOutputPath(job, new org.apache.hadoop.fs.Path(out.toUri()));
    return job;
  }

  private static String failureInfo(Job job) {
    try {
      return job.getStatus().getFailureInfo();
    } catch (IOException | InterruptedException e) {
      return e.toString();
    }
  }

  private static SortedMap<String, byte[]> readOutput(Path dir, JobConf conf) throws IOException {
    SortedMap<String, byte[]> files = new TreeMap<>();
    org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(dir.toUri());
    FileSystem fs = p.getFileSystem(conf);
    for (FileStatus st : fs.globStatus(new org.apache.hadoop.fs.Path(p, "part-*"))) {
      byte[] bytes = new byte[(int) st.getLen()];
      try (var in = fs.open(st.getPath())) {
        IOUtils.readFully(in, bytes, 0, bytes.length);
      }
      files.put(st.getPath().getName(), bytes);
    }
    return files;
  }

  private static void assertSameOutput(SortedMap<String, byte[]> expected, SortedMap<String, byte[]> actual) {
    assertEquals(expected.keySet(), actual.keySet(), "output files");
    assertEquals(REDUCES, expected.size());
    for (String file : expected.keySet()) {
      assertArrayEquals(expected.get(file), actual.get(file), file + " differs");
    }
  }

  /** Words with a heavy head: "hot" is a third of all words, a few others a tenth, the rest uniform. */
  private static Path writeSkewedWords(String name, int files, int lines) throws IOException {
    Path dir = cluster.workDir().resolve(name);
    Files.createDirectories(dir);
    Random rnd = new Random(42);
    for (int f = 0; f < files; f++) {
      try (BufferedWriter w = Files.newBufferedWriter(dir.resolve("part-" + f + ".txt"))) {
        StringBuilder sb = new StringBuilder();
        for (int line = 0; line < lines; line++) {
          sb.setLength(0);
          for (int i = 0; i < 8; i++) {
            double x = rnd.nextDouble();
            sb.append(x < 0.33 ? "hot" : x < 0.43 ? "warm" + rnd.nextInt(3) : "w" + rnd.nextInt(20_000)).append(' ');
          }
          w.write(sb.toString());
          w.newLine();
        }
      }
    }
    return dir;
  }
}
