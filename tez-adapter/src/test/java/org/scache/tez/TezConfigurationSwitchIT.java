package org.scache.tez;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.examples.WordCount;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.tez.common.counters.TaskCounter;
import org.apache.tez.common.counters.TezCounters;
import org.apache.tez.dag.api.DAG;
import org.apache.tez.dag.api.TezConfiguration;
import org.apache.tez.dag.api.client.DAGStatus;
import org.apache.tez.dag.library.vertexmanager.ShuffleVertexManager;
import org.apache.tez.examples.CartesianProduct;
import org.apache.tez.examples.OrderedWordCount;
import org.apache.tez.examples.SortMergeJoinExample;
import org.apache.tez.mapreduce.examples.TestOrderedWordCount;
import org.apache.tez.mapreduce.examples.UnionExample;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.scache.common.config.ScacheOptions;
import org.scache.yarn.YarnOptions;

/**
 * Tez's stock programs, unchanged, on a MiniTezCluster whose NodeManagers host SCache workers: each
 * runs once on Tez's own shuffle and once with only the configuration switch of docs/deploy-tez.md
 * (tez.am.dag.scheduler.class and scache.tez.shuffle.enabled in the client's configuration). The
 * outputs must be equal, the edges SCache serves must have moved every shuffled byte through it,
 * and the application master must have said, per DAG and per edge, what it did and why.
 */
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class TezConfigurationSwitchIT {
  /** Vertices of a DAG that Tez's auto-parallelism may shrink; far above what one task of these inputs reads. */
  private static final long LARGE_DESIRED_TASK_INPUT = 64L << 20;

  private static MiniScacheTezCluster cluster;
  private static Path words;
  /** tez-examples' OrderedWordCount on Tez's shuffle: the baseline of every run of that program. */
  private static Result owcOnTez;

  @BeforeAll
  static void startCluster() throws Exception {
    // container logs are kept after each application ends: the application masters' logs are checked
    cluster = new MiniScacheTezCluster("tez-configuration-switch", 2, 600);
    // two files: two producer tasks, each writing every partition, are all a shuffle needs; every task is a
    // container started on a machine of two cores
    words = cluster.writeWords("words", 2, 4_000, 2000, 8, 11);
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  /** What the client's tez-site.xml says: the cluster's settings, and with {@code switched} the two keys. */
  private static TezConfiguration conf(boolean switched) {
    return cluster.clientConf(switched);
  }

  @Test
  void stockOrderedWordCount_twoOrderedEdges_throughScache_sameOutput() throws Exception {
    Result tez = orderedWordCountOnTez();
    Result scache = submit(true, OrderedWordCount.createDAG(conf(true), words.toString(),
        out("owc-scache"), 3, true, false, "stock-owc"), out("owc-scache"));
    assertSameLines(tez, scache);
    assertOnTez(tez);
    assertEveryShuffledByteThroughScache(scache);
    assertSameShuffleBytes(tez, scache);
    assertEdgeLog("stock-owc", 2, 0);
    assertDagCounters(scache, 2, 0, false);
  }

  @Test
  void stockOrderedWordCount_autoParallelism_shrinksTheSummationThroughScache_sameOutput() throws Exception {
    // Tez's ShuffleVertexManager, which SCache's manager runs, may cut Summation's 3 tasks to what its input needs
    TezConfiguration conf = conf(true);
    conf.setBoolean(ShuffleVertexManager.TEZ_SHUFFLE_VERTEX_MANAGER_ENABLE_AUTO_PARALLEL, true);
    conf.setLong(ShuffleVertexManager.TEZ_SHUFFLE_VERTEX_MANAGER_DESIRED_TASK_INPUT_SIZE, LARGE_DESIRED_TASK_INPUT);
    Result scache = submit(conf, OrderedWordCount.createDAG(conf, words.toString(), out("owc-auto"), 3, true, false,
        "stock-owc-auto-parallel"), out("owc-auto"));
    assertSameLines(orderedWordCountOnTez(), scache);
    assertEveryShuffledByteThroughScache(scache);
    assertEdgeLog("stock-owc-auto-parallel", 2, 0);
    List<String> reduced = amLogOfDag("stock-owc-auto-parallel", "Reducing auto parallelism for vertex: ");
    List<String> reconfigured = amLogOfDag("stock-owc-auto-parallel", "Tez sets the parallelism to ");
    reduced.forEach(l -> System.out.println("AM " + l));
    reconfigured.forEach(l -> System.out.println("AM " + l));
    assertEquals(1, reduced.stream().filter(l -> l.endsWith("vertex: Summation from 3 to 1")).count(),
        reduced::toString);
    assertEquals(1, reconfigured.stream().filter(l -> l.contains("Summation: Tez sets the parallelism to 1;"))
        .count(), reconfigured::toString);
  }

  @Test
  void stockMapReduceWordCount_onYarnTez_throughScache_sameOutput() throws Exception {
    assertTrue(mapReduceWordCount(false, "mr-wordcount-tez"), "the job on Tez's shuffle succeeded");
    Result tez = history("mr-wordcount-tez", out("mr-wordcount-tez"));
    Map<String, Long> before = cluster.workerStats();
    assertTrue(mapReduceWordCount(true, "mr-wordcount-scache"), "the job through SCache succeeded");
    Result scache = history("mr-wordcount-scache", out("mr-wordcount-scache"));
    assertSameLines(tez, scache);
    assertOnTez(tez);
    assertEveryShuffledByteThroughScache(scache);
    assertSameShuffleBytes(tez, scache);
    assertWorkersMovedTheShuffle(delta(before));
    // YARNRunner's DAG: MapProcessor -> ReduceProcessor, one ordered edge with a legacy input
    assertEdgeLog("mr-wordcount-scache", 1, 0);
    assertDagCounters(scache, 1, 0, false);
  }

  @Test
  void switchOnButScacheUnreachable_dagRunsOnTezShuffle_andTheMasterSaysSoPerDagAndEdge() throws Exception {
    TezConfiguration unreachable = conf(true);
    unreachable.set(ScacheOptions.CLIENT_MASTER_ADDRESS.key(), "127.0.0.1:1");
    unreachable.set(YarnOptions.SUBMIT_CHECK_TIMEOUT.key(), "1s");
    Result fallback = submit(unreachable, OrderedWordCount.createDAG(unreachable, words.toString(),
        out("owc-unreachable"), 2, true, false, "stock-owc-unreachable"), out("owc-unreachable"));
    assertOnTez(fallback);
    assertTrue(!sortedLines(fallback.out).isEmpty(), "the DAG wrote its output");
    assertDagCounters(fallback, 0, 2, true);
    List<String> lines = amLog("DAG stock-owc-unreachable [");
    assertEquals(1, lines.stream().filter(l -> l.contains("SCache is not usable (")
        && l.contains("runs on Tez's own shuffle")).count(), lines::toString);
    assertEquals(2, lines.stream().filter(l -> l.contains("stays on Tez's shuffle: SCache is not used for this DAG"))
        .count(), lines::toString);
  }

  @Test
  void stockTestOrderedWordCount_mapReduceProcessorsOnLegacyInputs_throughScache_sameOutput() throws Exception {
    Result tez = submit(false, legacyWordCount(false, "towc-tez"), out("towc-tez"));
    Result scache = submit(true, legacyWordCount(true, "towc-scache"), out("towc-scache"));
    assertSameLines(tez, scache);
    assertOnTez(tez);
    assertEveryShuffledByteThroughScache(scache);
    assertSameShuffleBytes(tez, scache);
    assertEdgeLog("OrderedWordCount7", 2, 0);
    assertDagCounters(scache, 2, 0, false);
  }

  @Test
  void stockSortMergeJoin_twoInputsIntoOneVertex_throughScache_sameOutput() throws Exception {
    Path left = cluster.writeWords("join-left", 2, 3_000, 5000, 1, 4);
    Path right = cluster.writeWords("join-right", 2, 3_000, 5000, 1, 5);
    assertEquals(0, new SortMergeJoinExample().run(conf(false), new String[] {left.toString(), right.toString(), "3",
        out("smj-tez")}, null));
    Result tez = history("SortMergeJoinExample", out("smj-tez"));
    assertEquals(0, new SortMergeJoinExample().run(conf(true), new String[] {left.toString(), right.toString(), "3",
        out("smj-scache")}, null));
    Result scache = history("SortMergeJoinExample", out("smj-scache"));
    assertSameLines(tez, scache);
    assertOnTez(tez);
    assertEveryShuffledByteThroughScache(scache);
    assertSameShuffleBytes(tez, scache);
    assertEdgeLog("SortMergeJoinExample", 2, 0);
    assertDagCounters(scache, 2, 0, false);
  }

  @Test
  void stockUnionExample_vertexGroupIntoOneInput_everyMemberEdgeThroughScache_sameOutput() throws Exception {
    // UnionExample runs in an application of its own, with the configuration it is given; each of its three
    // producer vertices reads the whole input, one task per file
    Path unionWords = cluster.writeWords("union-words", 1, 3_000, 2000, 8, 12);
    assertTrue(new UnionExample().run(unionWords.toString(), out("union-tez"), conf(false)));
    Result tez = history("UnionExample", out("union-tez"));
    assertTrue(new UnionExample().run(unionWords.toString(), out("union-scache"), conf(true)));
    Result scache = history("UnionExample", out("union-scache"));
    assertSameLines(tez, scache);
    assertEquals(sortedLines(out("union-tez") + "-all-parts"), sortedLines(out("union-scache") + "-all-parts"));
    assertOnTez(tez);
    // three producer vertices (map1, map2 in the group, map3) into one checker task
    assertEveryShuffledByteThroughScache(scache);
    assertSameShuffleBytes(tez, scache);
    assertEdgeLog("UnionExample", 3, 0);
    assertDagCounters(scache, 3, 0, false);
  }

  @Test
  void stockCartesianProduct_customAndBroadcastEdges_stayOnTezWithALoggedReason_sameOutput() throws Exception {
    Path in1 = cluster.writeWords("cp-1", 1, 40, 30, 1, 21);
    Path in2 = cluster.writeWords("cp-2", 1, 40, 30, 1, 22);
    Path in3 = cluster.writeWords("cp-3", 1, 40, 30, 1, 23);
    assertEquals(0, new CartesianProduct().run(conf(false), new String[] {"-unpartitioned", in1.toString(),
        in2.toString(), in3.toString(), out("cp-tez")}, null));
    Result tez = history("CartesianProduct", out("cp-tez"));
    assertEquals(0, new CartesianProduct().run(conf(true), new String[] {"-unpartitioned", in1.toString(),
        in2.toString(), in3.toString(), out("cp-scache")}, null));
    Result switched = history("CartesianProduct", out("cp-scache"));
    assertSameLines(tez, switched);
    // inputs this small travel inside Tez's events, so no shuffle counts bytes; neither run put any in SCache
    assertEquals(0, tez.counters.findCounter(ScacheTezCounter.BLOCKS_PUT).getValue());
    assertEquals(0, switched.counters.findCounter(ScacheTezCounter.BLOCKS_PUT).getValue());
    assertEdgeLog("CartesianProduct", 0, 3);
    assertDagCounters(switched, 0, 3, false);
    List<String> reasons = amLog("SCache: DAG CartesianProduct [");
    assertEquals(2, reasons.stream().filter(l -> l.contains("stays on Tez's shuffle: custom edge (edge manager "
        + "org.apache.tez.runtime.library.cartesianproduct.CartesianProductEdgeManager)")).count(), reasons::toString);
    assertEquals(1, reasons.stream().filter(l -> l.contains("stays on Tez's shuffle: broadcast edge")).count(),
        reasons::toString);
    assertEquals(1, reasons.stream().filter(l -> l.contains("has no edge SCache can serve")).count(),
        reasons::toString);
  }

  // ---------------------------------------------------------------- programs

  /** OrderedWordCount of the words on Tez's shuffle, run once for every test that compares with it. */
  private static synchronized Result orderedWordCountOnTez() throws Exception {
    if (owcOnTez == null) {
      owcOnTez = submit(false, OrderedWordCount.createDAG(conf(false), words.toString(), out("owc-tez"), 3, true,
          false, "stock-owc-on-tez"), out("owc-tez"));
    }
    return owcOnTez;
  }

  /**
   * hadoop-mapreduce-examples' WordCount, set up as its main method does, submitted with
   * mapreduce.framework.name=yarn-tez: tez-mapreduce's YARNRunner turns it into a Tez DAG. With
   * {@code switched} its configuration carries the switch, and nothing else differs.
   */
  private static boolean mapReduceWordCount(boolean switched, String name) throws Exception {
    Configuration conf = new Configuration(conf(switched));
    conf.set(MRConfig.FRAMEWORK_NAME, "yarn-tez");
    conf.set(MRJobConfig.MR_AM_STAGING_DIR, cluster.workDir().resolve("mr-staging").toString());
    // YARNRunner starts the application master with MapReduce's options and memory, not Tez's
    conf.set(MRJobConfig.MR_AM_COMMAND_OPTS, conf.get(TezConfiguration.TEZ_AM_LAUNCH_CMD_OPTS));
    conf.setInt(MRJobConfig.MR_AM_VMEM_MB, 512);
    conf.setInt(MRJobConfig.MAP_MEMORY_MB, 512);
    conf.setInt(MRJobConfig.REDUCE_MEMORY_MB, 512);
    conf.set(MRJobConfig.MAP_JAVA_OPTS, "-Xmx384m");
    conf.set(MRJobConfig.REDUCE_JAVA_OPTS, "-Xmx384m");
    conf.setInt(Job.COMPLETION_POLL_INTERVAL_KEY, 100);
    Job job = Job.getInstance(conf, name);
    job.setMapperClass(WordCount.TokenizerMapper.class);
    job.setCombinerClass(WordCount.IntSumReducer.class);
    job.setReducerClass(WordCount.IntSumReducer.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(IntWritable.class);
    job.setNumReduceTasks(3);
    FileInputFormat.addInputPath(job, new org.apache.hadoop.fs.Path(words.toUri()));
    FileOutputFormat.setOutputPath(job, new org.apache.hadoop.fs.Path(Path.of(out(name)).toUri()));
    return job.waitForCompletion(false);
  }

  /** tez-tests' TestOrderedWordCount DAG: MapProcessor and two ReduceProcessors, on legacy ordered inputs. */
  private static DAG legacyWordCount(boolean switched, String name) throws Exception {
    TezConfiguration conf = conf(switched);
    Path staging = cluster.workDir().resolve("staging-" + name);
    Files.createDirectories(staging);
    return new TestOrderedWordCount().createDAG(FileSystem.getLocal(conf), conf, new HashMap<>(),
        new org.apache.hadoop.fs.Path(staging.toUri()), 7, words.toString(), out(name), false, false, 2, -1, 3);
  }

  record Result(DAGStatus status, TezCounters counters, String out) {}

  /**
   * Runs {@code dag} in an application of its own, as its program's driver does (the mini cluster starts
   * one application master at a time), and returns its counters.
   */
  private static Result submit(boolean switched, DAG dag, String out) throws Exception {
    return submit(conf(switched), dag, out);
  }

  private static Result submit(TezConfiguration conf, DAG dag, String out) throws Exception {
    DAGStatus status = cluster.run(conf, dag);
    return new Result(status, status.getDAGCounters(), out);
  }

  /** The last DAG named {@code dagName} that a stock driver ran, with its counters from Tez's history. */
  private static Result history(String dagName, String out) throws Exception {
    return new Result(null, DagHistory.lastFinished(cluster.yarnDir(), dagName), out);
  }

  // ---------------------------------------------------------------- checks

  private static void assertSameLines(Result tez, Result scache) throws IOException {
    List<String> expected = sortedLines(tez.out);
    assertTrue(!expected.isEmpty(), tez.out + " has output");
    assertEquals(expected, sortedLines(scache.out));
  }

  private static void assertOnTez(Result tez) {
    assertEquals(0, tez.counters.findCounter(ScacheTezCounter.BLOCKS_PUT).getValue());
    assertTrue(tez.counters.findCounter(TaskCounter.SHUFFLE_BYTES).getValue() > 0, "Tez's shuffle moved the data");
  }

  private static void assertEveryShuffledByteThroughScache(Result scache) {
    TezCounters c = scache.counters;
    System.out.printf("COUNTERS blocks put %d read %d, bytes read %d, shuffle bytes %d%n",
        c.findCounter(ScacheTezCounter.BLOCKS_PUT).getValue(), c.findCounter(ScacheTezCounter.BLOCKS_READ).getValue(),
        c.findCounter(ScacheTezCounter.BYTES_READ).getValue(), c.findCounter(TaskCounter.SHUFFLE_BYTES).getValue());
    assertTrue(c.findCounter(ScacheTezCounter.BLOCKS_PUT).getValue() > 0, "producers put blocks");
    assertTrue(c.findCounter(ScacheTezCounter.BYTES_READ).getValue() > 0, "consumers read bytes from SCache");
    assertEquals(c.findCounter(ScacheTezCounter.BLOCKS_PUT).getValue(),
        c.findCounter(ScacheTezCounter.BLOCKS_READ).getValue(), "every block put was read once");
    assertEquals(c.findCounter(ScacheTezCounter.BYTES_READ).getValue(),
        c.findCounter(TaskCounter.SHUFFLE_BYTES).getValue(), "every shuffled byte came from SCache");
  }

  /** SCache's consumers read exactly the bytes Tez's shuffle moved for the same program and input. */
  private static void assertSameShuffleBytes(Result tez, Result scache) {
    assertEquals(tez.counters.findCounter(TaskCounter.SHUFFLE_BYTES).getValue(),
        scache.counters.findCounter(ScacheTezCounter.BYTES_READ).getValue(),
        "SCache read the bytes Tez's shuffle moves");
  }

  /** The DAG's own counters say what the switch decided. */
  private static void assertDagCounters(Result r, int throughScache, int onTez, boolean unusable) {
    assertEquals(throughScache, r.counters.findCounter(ScacheTezCounter.DAG_EDGES_THROUGH_SCACHE).getValue());
    assertEquals(onTez, r.counters.findCounter(ScacheTezCounter.DAG_EDGES_ON_TEZ_SHUFFLE).getValue());
    assertEquals(unusable ? 1 : 0, r.counters.findCounter(ScacheTezCounter.DAG_SCACHE_UNUSABLE).getValue());
  }

  private static void assertWorkersMovedTheShuffle(Map<String, Long> delta) {
    System.out.println("WORKERS " + delta);
    long blocks = delta.getOrDefault("put.blocks", 0L);
    assertTrue(blocks > 0, "the producers put blocks");
    assertEquals(blocks, delta.getOrDefault("read.local.blocks", 0L) + delta.getOrDefault("read.remote.blocks", 0L),
        "every block was read");
  }

  /** The application master said, once per edge, which edges of the DAG go through SCache and which stay. */
  private static void assertEdgeLog(String dagName, int throughScache, int onTez) throws IOException {
    List<String> lines = amLog("SCache: DAG " + dagName + " [");
    lines.forEach(l -> System.out.println("AM " + l.substring(l.indexOf("SCache: DAG"))));
    assertEquals(throughScache, lines.stream().filter(l -> l.contains(" goes through SCache as shuffle ")).count(),
        lines::toString);
    assertEquals(onTez, lines.stream().filter(l -> l.contains(" stays on Tez's shuffle: ")).count(), lines::toString);
    if (throughScache > 0) {
      assertEquals(1, lines.stream().filter(l -> l.contains(throughScache + " of its " + (throughScache + onTez)
          + " edges go through SCache")).count(), lines::toString);
    }
  }

  private static List<String> amLog(String marker) throws IOException {
    return cluster.containerLogLines(marker);
  }

  /** The lines with {@code marker} of the application master's log files that speak of DAG {@code dagName}. */
  private static List<String> amLogOfDag(String dagName, String marker) throws IOException {
    List<String> out = new ArrayList<>();
    for (Path f : ClusterLogFiles.named(cluster.yarnDir(), "syslog")) {
      List<String> lines = ClusterLogFiles.lines(f);
      if (lines.stream().anyMatch(l -> l.contains("SCache: DAG " + dagName + " ["))) {
        lines.stream().filter(l -> l.contains(marker)).forEach(out::add);
      }
    }
    return out;
  }

  private static Map<String, Long> delta(Map<String, Long> before) {
    Map<String, Long> now = new TreeMap<>(cluster.workerStats());
    now.replaceAll((k, v) -> v - before.getOrDefault(k, 0L));
    return now;
  }

  // ---------------------------------------------------------------- data

  private static String out(String name) {
    return cluster.workDir().resolve("out-" + name).toString();
  }

  private static List<String> sortedLines(String dir) throws IOException {
    return MiniScacheTezCluster.sortedLines(dir);
  }
}
