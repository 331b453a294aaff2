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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.io.IOUtils;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.compress.DefaultCodec;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.FileSystemCounter;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.TaskReport;
import org.apache.hadoop.mapreduce.TaskType;
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
import org.scache.yarn.ScacheAuxService;

/**
 * Real MapReduce jobs on a MiniMRYarnCluster with two NodeManagers, each hosting an SCache worker
 * through {@link ScacheAuxService}. Every job runs on Hadoop's shuffle and through SCache, and the
 * outputs must be equal byte for byte.
 */
@Timeout(value = 15, unit = TimeUnit.MINUTES)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MapReduceThroughScacheIT {
  private static final int REDUCERS_MANY = 16;
  private static MiniScacheYarnCluster cluster;
  private static long started;
  /** The word counts of the first test, on Hadoop's shuffle and through SCache. */
  private static List<Result> wordCounts = List.of();
  /** A word count with a combiner and three reduces. */
  private static final Consumer<Job> WORD_COUNT = job -> {
    job.setCombinerClass(IntSumReducer.class);
    job.setNumReduceTasks(3);
  };
  private static Path wordCountInput;
  private static Result wordCountOnHadoop;
  private static Result wordCountOnScache;
  private static Path fallbackInput;
  private static Result fallbackOnHadoop;

  @BeforeAll
  static void startCluster() throws Exception {
    started = System.nanoTime();
    cluster = MiniScacheYarnCluster.forTests("mr-through-scache", 2, conf -> { });
    System.out.printf("TIMING cluster start: %.1f s%n", seconds(started));
  }

  @AfterAll
  static void stopCluster() {
    long t = System.nanoTime();
    if (cluster != null) {
      cluster.close();
    }
    System.out.printf("TIMING cluster stop: %.1f s, class total %.1f s%n", seconds(t), seconds(started));
  }

  @Test
  @Order(1)
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void wordCountWithCombiner_sameOutputAsHadoopShuffle_withoutShuffleFilesOrHttp() throws Exception {
    Result hadoop = wordCountOnHadoop();
    Result scache = run("wordcount", wordCountInput(), true, WORD_COUNT);
    assertSameOutput(hadoop, scache);
    assertShuffledThroughScache(hadoop, scache);
    assertTrue(hadoop.mapFileBytesWritten > 0, "Hadoop's maps write their output to local disk");
    assertTrue(hadoop.reduceSpilledRecords > 0, "Hadoop's reduces merge their input to local disk before reducing");
    assertEquals(0, scache.reduceSpilledRecords,
        "SCache's reduces keep an input that fits in memory through the reduce");
    assertTrue(scache.counter(TaskCounter.COMBINE_OUTPUT_RECORDS) > 0, "the combiner ran on the map side");
    assertTrue(scache.counters.findCounter(ScacheCounter.MAP_JVM_STARTUP_MILLIS).getValue() > 0,
        "the maps reported their JVMs' start-up, which times the reduces' launch");
    assertMetricsAgreeWithTheJob(scache, 3);
    wordCounts = List.of(hadoop, scache);
    wordCountOnScache = scache;
  }

  /**
   * The FRQ command an operator runs on a Hadoop client reads both finished word counts' histories by job id
   * and predicts each on either shuffle; with the links given, SCache's prediction is no longer than Hadoop's.
   */
  @Test
  @Order(2)
  void frqCommand_readsFinishedJobsHistoriesByJobId_andPredictsBothShuffles() throws Exception {
    assertEquals(2, wordCounts.size(), "the word counts ran first");
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
    String[] args = {"--link-mbit", "40", "--nodes", "3", wordCounts.get(0).id().toString(),
        wordCounts.get(1).id().toString()};
    Await.until(() -> {
      out.reset();
      err.reset();
      return org.scache.hadoop.frq.FrqCommand.run(args, cluster.jobConf(), new java.io.PrintStream(out, true),
          new java.io.PrintStream(err, true)) == 0;
    }, Duration.ofMinutes(2), "both jobs' history files are written");
    String report = out.toString(java.nio.charset.StandardCharsets.UTF_8);
    System.out.print(report);
    assertTrue(report.contains(wordCounts.get(0).id() + " (wordcount-hadoop) ran on Hadoop shuffle"), report);
    assertTrue(report.contains(wordCounts.get(1).id() + " (wordcount-scache) ran on SCache"), report);
    assertTrue(report.contains("links of 40 Mbit/s on 3 nodes"), report);
    java.util.regex.Matcher predicted = java.util.regex.Pattern.compile(
        "predicted: ([0-9.]+) s on Hadoop's shuffle, ([0-9.]+) s through SCache").matcher(report);
    int jobs = 0;
    while (predicted.find()) {
      jobs++;
      assertTrue(Double.parseDouble(predicted.group(2)) <= Double.parseDouble(predicted.group(1)), report);
    }
    assertEquals(2, jobs, report);
  }

  /**
   * What an operator's Prometheus sees after the cluster's first SCache job: the workers stored every
   * block the job's maps put and answered one whole-input read per reduce, and the master placed
   * every reduce, once.
   */
  private static void assertMetricsAgreeWithTheJob(Result scache, int reduces) throws Exception {
    java.util.List<String> urls = cluster.metricsUrls();
    String master = scrape(urls.get(0));
    assertEquals(1, sample(master, "scache_master_placements_total{policy=\"heuristic-minheap\"}"), master);
    assertEquals(reduces, sample(master, "scache_master_reduces_placed_total"), master);
    assertEquals(2, sample(master, "scache_master_workers_live"), master);
    long blocks = 0;
    long reads = 0;
    for (String url : urls.subList(1, urls.size())) {
      String worker = scrape(url);
      blocks += Math.max(0, sample(worker, "scache_worker_put_blocks_total"));
      // a reduce on a worker's host reads through its shared memory (PIN_REDUCE_INPUT), else over the socket
      for (String request : java.util.List.of("GET_REDUCE_INPUT", "PIN_REDUCE_INPUT")) {
        reads += Math.max(0, sample(worker, "scache_worker_answers_total{request=\"" + request + "\",status=\"OK\"}"));
      }
    }
    assertEquals(scache.counters.findCounter(ScacheCounter.BLOCKS_PUT).getValue(), blocks,
        "blocks stored, by the workers' metrics, against the job's own counter");
    // a speculative attempt that is killed before it reads launches without reading: at least one read
    // per reduce, at most one per launched attempt, and no attempt failed
    long launched = scache.counters.findCounter(org.apache.hadoop.mapreduce.JobCounter.TOTAL_LAUNCHED_REDUCES)
        .getValue();
    assertTrue(reads >= reduces && reads <= launched,
        "one whole-input read per reduce attempt: " + reads + " reads, " + reduces + " reduces, "
            + launched + " attempts launched");
    assertEquals(0, scache.counters.findCounter(org.apache.hadoop.mapreduce.JobCounter.NUM_FAILED_REDUCES)
        .getValue(), "failed reduce attempts");
  }

  private static String scrape(String url) throws Exception {
    java.net.http.HttpResponse<String> r = java.net.http.HttpClient.newHttpClient().send(
        java.net.http.HttpRequest.newBuilder(java.net.URI.create(url)).build(),
        java.net.http.HttpResponse.BodyHandlers.ofString());
    assertEquals(200, r.statusCode(), url);
    return r.body();
  }

  /** A sample's value, or -1 when the metrics have no such line. */
  private static long sample(String metrics, String name) {
    for (String line : metrics.split("\n")) {
      if (line.startsWith(name + " ")) {
        return Math.round(Double.parseDouble(line.substring(name.length() + 1).trim()));
      }
    }
    return -1;
  }

  @Test
  @Order(3)
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void mapOutputBeyondSortBuffer_putsEachSpillAsRuns_sameOutput() throws Exception {
    Path input = writeWords("spill-in", 2, 40_000, 200_000, 2);
    Consumer<Job> spilling = job -> {
      job.getConfiguration().setInt(MRJobConfig.IO_SORT_MB, 1);
      job.setNumReduceTasks(2);
    };
    Result hadoop = run("spill-hadoop-local", input, localRunner(), spilling);
    Result scache = run("spill", input, true, spilling);
    assertSameOutput(hadoop, scache);
    assertShuffledThroughScacheWithoutShuffleFiles(scache);
    assertTrue(scache.counters.findCounter(ScacheCounter.SPILL_RUNS).getValue() >= 4,
        "maps exceeded their 1 MB sort buffer several times");
  }

  @Test
  @Order(4)
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void compressedMapOutput_sameOutput() throws Exception {
    Path input = writeWords("compress-in", 2, 20_000, 20_000, 3);
    Consumer<Job> compressed = job -> {
      job.getConfiguration().setBoolean(MRJobConfig.MAP_OUTPUT_COMPRESS, true);
      job.getConfiguration().setClass(MRJobConfig.MAP_OUTPUT_COMPRESS_CODEC, DefaultCodec.class,
          org.apache.hadoop.io.compress.CompressionCodec.class);
      job.setCombinerClass(IntSumReducer.class);
      job.setNumReduceTasks(2);
    };
    Result hadoop = run("compress-hadoop-local", input, localRunner(), compressed);
    Result scache = run("compress", input, true, compressed);
    assertSameOutput(hadoop, scache);
    assertShuffledThroughScacheWithoutShuffleFiles(scache);
    assertTrue(scache.counter(TaskCounter.MAP_OUTPUT_MATERIALIZED_BYTES)
        < scache.counter(TaskCounter.MAP_OUTPUT_BYTES) / 2, "blocks hold compressed runs");
  }

  @Test
  @Order(5)
  @Timeout(value = 12, unit = TimeUnit.MINUTES)
  void manyReducersMostlyEmpty_andNoReducers_sameOutput() throws Exception {
    Path input = writeWords("few-keys-in", 2, 2_000, 5, 4);
    // 16 reduces for 5 keys: most reduces read only empty blocks, and each node runs them in rounds (more would
    // only add reduce JVMs: 200 took this test nine minutes on two cores, 64 a minute and a half, 32 a minute)
    Consumer<Job> manyReducers = job -> {
      job.setCombinerClass(IntSumReducer.class);
      job.setNumReduceTasks(REDUCERS_MANY);
      // 16 reduce JVMs on two cores, in a small heap
      job.getConfiguration().set(MRJobConfig.REDUCE_JAVA_OPTS, "-Xmx128m " + MiniScacheYarnCluster.QUICK_JVM_OPTS);
    };
    JobConf local = localRunner();
    Result hadoop = run("many-reducers-hadoop-local", input, local, manyReducers);
    Result scache = run("many-reducers", input, true, manyReducers);
    assertSameOutput(hadoop, scache);
    assertEquals(REDUCERS_MANY, scache.output.size());
    assertEquals(2 * REDUCERS_MANY, scache.counters.findCounter(ScacheCounter.BLOCKS_PUT).getValue(),
        "a block per partition");
    assertEveryShuffledByteFromScache(scache);

    Consumer<Job> mapOnly = job -> job.setNumReduceTasks(0);
    Result hadoopMapOnly = run("map-only-hadoop-local", input, local, mapOnly);
    Result scacheMapOnly = run("map-only", input, true, mapOnly);
    assertSameOutput(hadoopMapOnly, scacheMapOnly);
    assertEquals(0, scacheMapOnly.counters.findCounter(ScacheCounter.BLOCKS_PUT).getValue());
  }

  @Test
  @Order(6)
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void masterUnreachableAtSubmission_jobRunsOnHadoopShuffle() throws Exception {
    JobConf conf = withDeadMaster(cluster.jobConf());
    assertFalse(ScacheJob.enable(conf), "SCache is reported unusable");
    assertFalse(ScacheJob.isEnabled(conf));
    Result fallback = run("fallback", fallbackInput(), conf, j -> j.setNumReduceTasks(2));
    assertRanOnHadoopShuffle(fallbackOnHadoop(), fallback);
  }

  @Test
  @Order(7)
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void switchInJobConfAlone_withPlugPointsFromSiteConfig_shufflesThroughScache() throws Exception {
    JobConf conf = operatorConf();
    conf.setBoolean("scache.enabled", true);
    Result scache = run("switch-scache", wordCountInput(), conf, WORD_COUNT);
    Result hadoop = wordCountOnHadoop();
    assertSameOutput(hadoop, scache);
    assertShuffledThroughScache(hadoop, scache);

    Result off = run("switch-off", wordCountInput(), operatorConf(), WORD_COUNT);
    assertSameOutput(hadoop, off);
    assertEquals(0, off.counters.findCounter(ScacheCounter.BLOCKS_PUT).getValue(), "without the switch, no SCache");
  }

  @Test
  @Order(8)
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void switchInJobConf_masterDown_applicationMasterChoosesHadoopShuffleForTheWholeJob() throws Exception {
    JobConf conf = withDeadMaster(operatorConf());
    conf.setBoolean("scache.enabled", true);
    Result fallback = run("am-fallback", fallbackInput(), conf, j -> j.setNumReduceTasks(2));
    assertRanOnHadoopShuffle(fallbackOnHadoop(), fallback);
  }

  @Test
  @Order(9)
  @Timeout(value = 6, unit = TimeUnit.MINUTES)
  void firstMapAttemptFailsAfterPuttingSpills_retriedAttemptWritesAsHadoopShuffle_sameOutput() throws Exception {
    Path input = writeWords("retry-in", 2, 30_000, 100_000, 8);
    Consumer<Job> failing = job -> {
      job.setMapperClass(FailFirstAttemptMapper.class);
      job.getConfiguration().setInt(MRJobConfig.IO_SORT_MB, 1);
      job.setNumReduceTasks(3);
    };
    // the local job runner does not retry a failed task: its baseline is the same job without the failure
    Result hadoop = run("retry-hadoop-local", input, localRunner(), job -> {
      job.getConfiguration().setInt(MRJobConfig.IO_SORT_MB, 1);
      job.setNumReduceTasks(3);
    });
    Result scache = run("retry", input, true, failing);
    assertSameOutput(hadoop, scache);
    assertEquals(1, scache.counters.findCounter(org.apache.hadoop.mapreduce.JobCounter.NUM_FAILED_MAPS).getValue(),
        "the first attempt of map 0 failed");
    assertEquals(1, scache.counters.findCounter(ScacheCounter.MAPS_WRITTEN_AS_HADOOP).getValue(),
        "the second attempt of map 0 wrote as Hadoop's shuffle");
    assertEquals(3, scache.counters.findCounter(ScacheCounter.OUTPUTS_READ_FROM_NODE_MANAGERS).getValue(),
        "each reduce read map 0 from its NodeManager");
    // job counters count the successful attempts' puts only: a read of the failed attempt's blocks would exceed them
    long put = scache.counters.findCounter(ScacheCounter.BYTES_PUT).getValue();
    assertTrue(put > 0, "map 1 put its output on SCache");
    assertEquals(put, scache.counters.findCounter(ScacheCounter.BYTES_READ).getValue(),
        "reduces read from SCache every byte map 1 put, and none of the failed attempt's");
    assertTrue(scache.counter(TaskCounter.REDUCE_SHUFFLE_BYTES) > put, "and map 0's output from its NodeManager");
  }

  @Test
  @Order(10)
  @Timeout(value = 8, unit = TimeUnit.MINUTES)
  void terasort_totalOrderPartitioner_sameSortedOutput_validated() throws Exception {
    JobConf gen = cluster.jobConf();
    gen.setInt(MRJobConfig.NUM_MAPS, 2);
    Path input = cluster.workDir().resolve("tera-in");
    MiniScacheYarnCluster.deleteRecursively(input);
    assertEquals(0, org.apache.hadoop.util.ToolRunner.run(gen, new org.apache.hadoop.examples.terasort.TeraGen(),
        new String[] {"200000", input.toUri().toString()}), "teragen");
    Result hadoop = terasort("terasort-hadoop", input, cluster.jobConf());
    JobConf conf = cluster.jobConf();
    assertTrue(ScacheJob.enable(conf), "SCache is reachable");
    Result scache = terasort("terasort-scache", input, conf);
    assertSameOutput(hadoop, scache);
    assertShuffledThroughScache(hadoop, scache);
    assertEquals(3, scache.output.size());
  }

  /**
   * Word counts of three shapes at once on the same workers (a combiner and 3 reduces, 6 reduces without one, one
   * reduce), each switched over as docs/deploy-yarn.md says: each gives the output Hadoop's shuffle gives, every
   * shuffled byte read from SCache.
   */
  @Test
  @Order(11)
  @Timeout(value = 6, unit = TimeUnit.MINUTES)
  void wordCountsOfThreeShapesAtOnce_eachGivesTheOutputHadoopsShuffleGives() throws Exception {
    Map<String, Consumer<Job>> shapes = new LinkedHashMap<>();
    shapes.put("at-once-combined", WORD_COUNT);
    shapes.put("at-once-six", job -> job.setNumReduceTasks(6));
    shapes.put("at-once-one", job -> job.setNumReduceTasks(1));
    Path input = wordCountInput();
    Map<String, CompletableFuture<Result>> running = new LinkedHashMap<>();
    shapes.forEach((name, setup) -> running.put(name, CompletableFuture.supplyAsync(() -> {
      try {
        return run(name, input, true, setup);
      } catch (Exception e) {
        throw new CompletionException(e);
      }
    })));
    for (Map.Entry<String, Consumer<Job>> shape : shapes.entrySet()) {
      Result scache = running.get(shape.getKey()).join();
      Result hadoop = run(shape.getKey() + "-local", input, localRunner(), shape.getValue());
      assertSameOutput(hadoop, scache);
      assertEveryShuffledByteFromScache(scache);
    }
  }

  /** Word count's mapper whose first attempt of map 0 fails after its output spilled (and was put). */
  public static final class FailFirstAttemptMapper extends TokenCounterMapper {
    @Override
    protected void cleanup(Context context) throws IOException {
      org.apache.hadoop.mapreduce.TaskAttemptID attempt = context.getTaskAttemptID();
      if (attempt.getTaskID().getId() == 0 && attempt.getId() == 0) {
        throw new IOException("first attempt of map 0 fails on purpose, after its spills");
      }
    }
  }

  // ---------------------------------------------------------------- helpers

  /** The word counts' input, written once for the tests that share it. */
  private static Path wordCountInput() throws IOException {
    if (wordCountInput == null) {
      wordCountInput = writeWords("wordcount-in", 2, 20_000, 5000, 1);
    }
    return wordCountInput;
  }

  /** {@link #WORD_COUNT} through SCache, as the first test ran it (or once more, when it did not run first). */
  private static Result wordCountOnScache() throws Exception {
    if (wordCountOnScache == null) {
      wordCountOnScache = run("wordcount-again", wordCountInput(), true, WORD_COUNT);
    }
    return wordCountOnScache;
  }

  /**
   * The cluster's configuration for Hadoop's shuffle in the local job runner: the same map, sort, shuffle and reduce
   * code and output format as on YARN, without its containers (a job's baseline, when it needs no YARN counters).
   */
  private static JobConf localRunner() {
    JobConf local = cluster.jobConf();
    local.set(MRConfig.FRAMEWORK_NAME, MRConfig.LOCAL_FRAMEWORK_NAME);
    return local;
  }

  /** {@link #WORD_COUNT} on Hadoop's shuffle, run once for the tests that compare with it. */
  private static Result wordCountOnHadoop() throws Exception {
    if (wordCountOnHadoop == null) {
      wordCountOnHadoop = run("wordcount", wordCountInput(), false, WORD_COUNT);
    }
    return wordCountOnHadoop;
  }

  /** The input of the jobs that fall back to Hadoop's shuffle, written once. */
  private static Path fallbackInput() throws IOException {
    if (fallbackInput == null) {
      fallbackInput = writeWords("fallback-in", 1, 5_000, 500, 5);
    }
    return fallbackInput;
  }

  /** What Hadoop's shuffle makes of {@link #fallbackInput()} with two reduces, run once. */
  private static Result fallbackOnHadoop() throws Exception {
    if (fallbackOnHadoop == null) {
      fallbackOnHadoop = run("fallback-hadoop-local", fallbackInput(), localRunner(), j -> j.setNumReduceTasks(2));
    }
    return fallbackOnHadoop;
  }

  /** A job configuration as on a cluster whose mapred-site.xml installs SCache's plug points (switch off). */
  private static JobConf operatorConf() {
    JobConf conf = cluster.jobConf();
    ScacheJob.installPlugPoints(conf);
    return conf;
  }

  /** Points {@code conf} at a port no master listens on, with a short submission check. */
  private static JobConf withDeadMaster(JobConf conf) throws IOException {
    int deadPort;
    try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
      deadPort = s.getLocalPort();
    }
    conf.set(org.scache.common.config.ScacheOptions.CLIENT_MASTER_ADDRESS.key(), "127.0.0.1:" + deadPort);
    conf.set(org.scache.yarn.YarnOptions.SUBMIT_CHECK_TIMEOUT.key(), "1s");
    return conf;
  }

  /** TeraSort with 3 reduces and TeraValidate of its output; the result holds TeraSort's counters. */
  private static Result terasort(String name, Path input, JobConf conf) throws Exception {
    Path out = cluster.workDir().resolve("out-" + name);
    Path report = cluster.workDir().resolve("report-" + name);
    MiniScacheYarnCluster.deleteRecursively(out);
    MiniScacheYarnCluster.deleteRecursively(report);
    conf.setInt(MRJobConfig.NUM_REDUCES, 3);
    conf.set(MRJobConfig.WORKING_DIR, ".");
    long t = System.nanoTime();
    assertEquals(0, org.apache.hadoop.util.ToolRunner.run(conf, new org.apache.hadoop.examples.terasort.TeraSort(),
        new String[] {input.toUri().toString(), out.toUri().toString()}), name);
    System.out.printf("TIMING job %s: %.1f s%n", name, seconds(t));
    Result sorted = resultOf(name, latestJob(conf), out, conf);
    assertEquals(0, org.apache.hadoop.util.ToolRunner.run(cluster.jobConf(),
        new org.apache.hadoop.examples.terasort.TeraValidate(),
        new String[] {out.toUri().toString(), report.toUri().toString()}), "teravalidate " + name);
    SortedMap<String, byte[]> validation = readOutput(report, conf);
    for (byte[] part : validation.values()) {
      String text = new String(part, java.nio.charset.StandardCharsets.UTF_8);
      assertFalse(text.contains("misorder") || text.contains("error"), name + " is not sorted: " + text);
      assertTrue(text.contains("checksum"), "teravalidate reported a checksum: " + text);
    }
    return sorted;
  }

  private static org.apache.hadoop.mapreduce.Job latestJob(JobConf conf) throws Exception {
    org.apache.hadoop.mapreduce.Cluster c = new org.apache.hadoop.mapreduce.Cluster(conf);
    org.apache.hadoop.mapreduce.JobStatus latest = null;
    for (org.apache.hadoop.mapreduce.JobStatus st : c.getAllJobStatuses()) {
      if (latest == null || st.getStartTime() > latest.getStartTime()) {
        latest = st;
      }
    }
    return c.getJob(latest.getJobID());
  }

  record Result(org.apache.hadoop.mapreduce.JobID id, SortedMap<String, byte[]> output, Counters counters,
      long mapFileBytesWritten, long reduceSpilledRecords) {
    long counter(TaskCounter c) {
      return counters.findCounter(c).getValue();
    }
  }

  private static Result run(String name, Path input, boolean scache, Consumer<Job> setup) throws Exception {
    JobConf conf = cluster.jobConf();
    if (scache) {
      assertTrue(ScacheJob.enable(conf), "SCache is reachable");
    }
    return run(name + (scache ? "-scache" : "-hadoop"), input, conf, setup);
  }

  private static Result run(String name, Path input, JobConf conf, Consumer<Job> setup) throws Exception {
    Path out = cluster.workDir().resolve("out-" + name);
    MiniScacheYarnCluster.deleteRecursively(out);
    Job job = Job.getInstance(conf, name);
    job.setJarByClass(MapReduceThroughScacheIT.class);
    job.setMapperClass(TokenCounterMapper.class);
    job.setReducerClass(IntSumReducer.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(IntWritable.class);
    setup.accept(job);
    FileInputFormat.addInputPath(job, new org.apache.hadoop.fs.Path(input.toUri()));
    FileOutputFormat.setOutputPath(job, new org.apache.hadoop.fs.Path(out.toUri()));
    long t = System.nanoTime();
    boolean ok = job.waitForCompletion(false);
    if (!ok) {
      StringBuilder why = new StringBuilder(job.getStatus().getFailureInfo());
      for (var e : job.getTaskCompletionEvents(0, 1000)) {
        if (e.getStatus() != org.apache.hadoop.mapreduce.TaskCompletionEvent.Status.SUCCEEDED) {
          why.append("\n").append(e.getTaskAttemptId()).append(' ').append(e.getStatus()).append(": ")
              .append(String.join(" | ", job.getTaskDiagnostics(e.getTaskAttemptId())));
        }
      }
      throw new AssertionError("job " + name + " failed: " + why);
    }
    System.out.printf("TIMING job %s: %.1f s%n", name, seconds(t));
    return resultOf(name, job, out, conf);
  }

  /**
   * A finished job's output files, counters, the bytes its maps wrote to local disk and the records its
   * reduces merged to local disk.
   */
  private static Result resultOf(String name, Job job, Path out, JobConf conf) throws Exception {
    long mapFileBytes = 0;
    for (TaskReport r : job.getTaskReports(TaskType.MAP)) {
      mapFileBytes += r.getTaskCounters().findCounter("file", FileSystemCounter.BYTES_WRITTEN).getValue();
    }
    long reduceSpilled = 0;
    for (TaskReport r : job.getTaskReports(TaskType.REDUCE)) {
      reduceSpilled += r.getTaskCounters().findCounter(TaskCounter.SPILLED_RECORDS).getValue();
    }
    Counters counters = job.getCounters();
    System.out.printf("COUNTERS %s: map file bytes written %d, materialized %d, reduce shuffle bytes %d, "
        + "SCache put %d bytes in %d blocks (%d spill runs), read %d bytes in %d runs%n", name, mapFileBytes,
        counters.findCounter(TaskCounter.MAP_OUTPUT_MATERIALIZED_BYTES).getValue(),
        counters.findCounter(TaskCounter.REDUCE_SHUFFLE_BYTES).getValue(),
        counters.findCounter(ScacheCounter.BYTES_PUT).getValue(),
            counters.findCounter(ScacheCounter.BLOCKS_PUT).getValue(),
        counters.findCounter(ScacheCounter.SPILL_RUNS).getValue(),
            counters.findCounter(ScacheCounter.BYTES_READ).getValue(),
        counters.findCounter(ScacheCounter.RUNS_READ).getValue());
    return new Result(job.getJobID(), readOutput(out, conf), counters, mapFileBytes, reduceSpilled);
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

  private static void assertSameOutput(Result expected, Result actual) {
    assertEquals(expected.output.keySet(), actual.output.keySet(), "output files");
    assertFalse(expected.output.isEmpty());
    long total = 0;
    for (String file : expected.output.keySet()) {
      assertArrayEquals(expected.output.get(file), actual.output.get(file), file + " differs");
      total += expected.output.get(file).length;
    }
    assertTrue(total > 0, "jobs produced output");
  }

  /**
   * Maps wrote no shuffle data to disk (only what every task writes, its localized job.xml: Hadoop's
   * maps wrote that plus their shuffle files), and every byte reduces shuffled came from SCache, none
   * over HTTP.
   */
  private static void assertShuffledThroughScache(Result hadoop, Result r) {
    long hadoopShuffleFiles = hadoop.counter(TaskCounter.MAP_OUTPUT_MATERIALIZED_BYTES);
    assertTrue(r.mapFileBytesWritten <= hadoop.mapFileBytesWritten - hadoopShuffleFiles + 16 * 1024,
        "SCache maps wrote " + r.mapFileBytesWritten + " bytes to local disk; Hadoop's maps wrote "
            + hadoop.mapFileBytesWritten + " including " + hadoopShuffleFiles + " bytes of shuffle files");
    assertEveryShuffledByteFromScache(r);
    assertEquals(r.counter(TaskCounter.MAP_OUTPUT_MATERIALIZED_BYTES), r.counters.findCounter(ScacheCounter.BYTES_PUT)
        .getValue());
  }

  /**
   * A job through SCache whose maps wrote no shuffle files: no more bytes to local disk than the word count's two
   * maps through SCache, whose output is small (every map task writes some bytes of its own there), and every
   * shuffled byte read from SCache.
   */
  private static void assertShuffledThroughScacheWithoutShuffleFiles(Result r) throws Exception {
    long wordCountMaps = wordCountOnScache().mapFileBytesWritten;
    assertTrue(r.mapFileBytesWritten <= wordCountMaps + 16 * 1024, "SCache maps wrote " + r.mapFileBytesWritten
        + " bytes to local disk, the word count's " + wordCountMaps + ", for a shuffle of "
        + r.counter(TaskCounter.MAP_OUTPUT_MATERIALIZED_BYTES) + " bytes");
    assertEveryShuffledByteFromScache(r);
    assertEquals(r.counter(TaskCounter.MAP_OUTPUT_MATERIALIZED_BYTES), r.counters.findCounter(ScacheCounter.BYTES_PUT)
        .getValue());
  }

  /** Reduces read exactly the bytes the successful maps put, and shuffled nothing else. */
  private static void assertEveryShuffledByteFromScache(Result r) {
    long put = r.counters.findCounter(ScacheCounter.BYTES_PUT).getValue();
    long read = r.counters.findCounter(ScacheCounter.BYTES_READ).getValue();
    assertTrue(put > 0, "maps put blocks on SCache");
    assertEquals(put, read, "reduces read every byte maps put");
    assertEquals(r.counter(TaskCounter.REDUCE_SHUFFLE_BYTES), read, "all shuffled bytes came from SCache");
  }

  /** The job ran on Hadoop's shuffle from start to end, with Hadoop's output. */
  private static void assertRanOnHadoopShuffle(Result hadoop, Result fallback) {
    assertSameOutput(hadoop, fallback);
    assertEquals(0, fallback.counters.findCounter(ScacheCounter.BLOCKS_PUT).getValue());
    assertEquals(0, fallback.counters.findCounter(ScacheCounter.BYTES_READ).getValue());
    assertTrue(fallback.mapFileBytesWritten > 0, "maps wrote Hadoop shuffle files");
  }

  /** Text files of random words w0..w(vocabulary-1), 8 per line. */
  private static Path writeWords(String name, int files, int lines, int vocabulary, long seed) throws IOException {
    Path dir = cluster.workDir().resolve(name);
    Files.createDirectories(dir);
    Random rnd = new Random(seed);
    for (int f = 0; f < files; f++) {
      try (BufferedWriter w = Files.newBufferedWriter(dir.resolve("part-" + f + ".txt"))) {
        StringBuilder sb = new StringBuilder();
        for (int line = 0; line < lines; line++) {
          sb.setLength(0);
          for (int i = 0; i < 8; i++) {
            sb.append('w').append(rnd.nextInt(vocabulary)).append(' ');
          }
          w.write(sb.toString());
          w.newLine();
        }
      }
    }
    return dir;
  }

  private static double seconds(long since) {
    return (System.nanoTime() - since) / 1e9;
  }
}
