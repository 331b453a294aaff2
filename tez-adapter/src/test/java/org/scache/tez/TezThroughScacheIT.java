package org.scache.tez;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.apache.tez.client.TezClient;
import org.apache.tez.common.counters.TaskCounter;
import org.apache.tez.common.counters.TezCounters;
import org.apache.tez.dag.api.DAG;
import org.apache.tez.dag.api.ProcessorDescriptor;
import org.apache.tez.dag.api.TezConfiguration;
import org.apache.tez.dag.api.Vertex;
import org.apache.tez.dag.api.client.DAGClient;
import org.apache.tez.dag.api.client.DAGStatus;
import org.apache.tez.dag.api.client.StatusGetOpts;
import org.apache.tez.dag.library.vertexmanager.ShuffleVertexManager;
import org.apache.tez.examples.HashJoinExample;
import org.apache.tez.examples.OrderedWordCount;
import org.apache.tez.examples.SortMergeJoinExample;
import org.apache.tez.examples.WordCount;
import org.apache.tez.mapreduce.input.MRInput;
import org.apache.tez.mapreduce.output.MROutput;
import org.apache.tez.runtime.library.conf.OrderedPartitionedKVEdgeConfig;
import org.apache.tez.runtime.library.conf.UnorderedPartitionedKVEdgeConfig;
import org.apache.tez.runtime.library.partitioner.HashPartitioner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.scache.common.config.ScacheOptions;
import org.scache.yarn.YarnOptions;

/**
 * Real Tez DAGs on a MiniTezCluster with two NodeManagers, each hosting an SCache worker through
 * the MapReduce adapter's auxiliary service. Every DAG runs on Tez's own shuffle and through SCache,
 * in one Tez session, and the outputs must be equal byte for byte.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TezThroughScacheIT {
  private static final int CONSUMERS = 3;
  private static MiniScacheTezCluster cluster;
  private static TezClient session;
  private static long started;

  @BeforeAll
  static void startCluster() throws Exception {
    started = System.nanoTime();
    cluster = new MiniScacheTezCluster("tez-through-scache", 2);
    System.out.printf("TIMING cluster start: %.1f s%n", seconds(started));
    long t = System.nanoTime();
    session = TezClient.create("tez-through-scache", cluster.tezConf(), true);
    session.start();
    session.waitTillReady();
    System.out.printf("TIMING session start: %.1f s%n", seconds(t));
  }

  @AfterAll
  static void stopCluster() throws Exception {
    long t = System.nanoTime();
    try {
      if (session != null) {
        session.stop();
      }
    } finally {
      if (cluster != null) {
        cluster.close();
      }
    }
    System.out.printf("TIMING cluster stop: %.1f s, class total %.1f s%n", seconds(t), seconds(started));
  }

  @Test
  @Order(1)
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void orderedWordCount_twoScatterGatherEdgesInAChain_sameOutputAsTezShuffle() throws Exception {
    Path input = writeWords("wordcount-in", 4, 10_000, 3000, 1);
    Result tez = run("wordcount-tez", false,
        conf -> orderedWordCount(conf, input, "wordcount-tez", TokenProcessorName.PLAIN));
    Result scache = run("wordcount-scache", true,
        conf -> orderedWordCount(conf, input, "wordcount-scache", TokenProcessorName.PLAIN));
    assertSameOutput(tez, scache);
    assertShuffledThroughScache(scache, 4 * CONSUMERS + CONSUMERS * 1);
    assertPlacement(scache, "Summation", CONSUMERS);
    assertPlacement(scache, "Sorter", 1);
  }

  @Test
  @Order(2)
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void scacheUnreachableAtSubmission_dagRunsOnTezShuffle() throws Exception {
    Path input = writeWords("fallback-in", 2, 2_000, 500, 2);
    Result tez = run("fallback-tez", false, conf -> orderedWordCount(conf, input, "fallback-tez",
        TokenProcessorName.PLAIN));
    Result fallback = run("fallback-unreachable", true, conf -> {
      conf.set(ScacheOptions.CLIENT_MASTER_ADDRESS.key(), "127.0.0.1:1");
      conf.set(YarnOptions.SUBMIT_CHECK_TIMEOUT.key(), "1s");
      return orderedWordCount(conf, input, "fallback-unreachable", TokenProcessorName.PLAIN);
    });
    assertFalse(fallback.usedScache, "the switch falls back when the master does not answer");
    assertSameOutput(tez, fallback);
    assertEquals(0, fallback.counters.findCounter(ScacheTezCounter.BLOCKS_PUT).getValue());
    assertTrue(fallback.counters.findCounter(TaskCounter.SHUFFLE_BYTES).getValue() > 0, "Tez's shuffle moved the data");
  }

  @Test
  @Order(3)
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void producerFailsOnceAfterPuttingItsBlocks_retriedAttemptIsRead_sameOutput() throws Exception {
    Path input = writeWords("failonce-in", 2, 5_000, 1000, 3);
    Result tez = run("failonce-tez", false, conf -> orderedWordCount(conf, input, "failonce-tez",
        TokenProcessorName.FAIL_ONCE));
    Result scache = run("failonce-scache", true, conf -> orderedWordCount(conf, input, "failonce-scache",
        TokenProcessorName.FAIL_ONCE));
    assertSameOutput(tez, scache);
    assertFalse(new String(scache.output, java.nio.charset.StandardCharsets.UTF_8)
        .contains(FailOnceTokenProcessor.BOGUS_WORD), "nothing of the failed attempt was read");
    assertShuffledThroughScache(scache, 2 * CONSUMERS + CONSUMERS);
    assertEquals(1, scache.failedTaskAttempts, "the first attempt of producer task 0 failed");
    // counters of successful attempts: two tokenizers and three summations put one block per partition
    assertEquals(2 * CONSUMERS + CONSUMERS, scache.counters.findCounter(ScacheTezCounter.BLOCKS_PUT).getValue());
    // the retried attempt leaves container requests in flight while the consumers are scheduled, and Tez gives a
    // container YARN allocates on one node to any task still waiting (it matches new containers at ANY): here a
    // consumer may run away from its worker, and then it says so and reads through its own worker
    assertPlacementHintedAndCounted(scache, Map.of("Summation", (long) CONSUMERS, "Sorter", 1L));
  }

  @Test
  @Order(4)
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void joinOfTwoShuffledInputsIntoOneVertex_sameOutputAsTezShuffle() throws Exception {
    // one word a line: the join key is the line
    Path left = cluster.writeWords("join-left", 2, 4_000, 6000, 1, 4);
    Path right = cluster.writeWords("join-right", 2, 4_000, 6000, 1, 5);
    Result tez = run("join-tez", false, conf -> sortMergeJoin(conf, left, right, "join-tez"));
    Result scache = run("join-scache", true, conf -> sortMergeJoin(conf, left, right, "join-scache"));
    assertSameOutput(tez, scache);
    assertShuffledThroughScache(scache, 2 * 2 * CONSUMERS);
    assertPlacement(scache, "joiner", CONSUMERS);
  }

  @Test
  @Order(5)
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void unorderedWordCount_unorderedScatterGatherEdge_sameOutputAsTezShuffle() throws Exception {
    Path input = writeWords("unordered-in", 3, 8_000, 3000, 6);
    Result tez = run("unordered-tez", false, conf -> unorderedWordCount(conf, input, "unordered-tez"));
    Result scache = run("unordered-scache", true, conf -> unorderedWordCount(conf, input, "unordered-scache"));
    assertSameOutput(tez, scache);
    assertShuffledThroughScache(scache, 3 * CONSUMERS);
    assertPlacement(scache, "Summation", CONSUMERS);
  }

  // ---------------------------------------------------------------- DAGs

  enum TokenProcessorName {
    PLAIN(WordCount.TokenProcessor.class.getName()),
    FAIL_ONCE(FailOnceTokenProcessor.class.getName());

    final String className;

    TokenProcessorName(String className) {
      this.className = className;
    }
  }

  /**
   * Tez's ordered word count: Tokenizer -(word, 1)-> Summation -(count, word)-> Sorter, two ordered edges.
   * The sorter also orders the words of one count, which Tez's NoOpSorter leaves in arrival order (so
   * two runs of Tez's own shuffle differ); the output is then a function of the input alone.
   */
  private static Built orderedWordCount(TezConfiguration conf, Path input, String name, TokenProcessorName tokenizer) {
    Path out = cluster.workDir().resolve("out-" + name);
    DAG dag = DAG.create(name);
    Vertex tokens = Vertex.create("Tokenizer", ProcessorDescriptor.create(tokenizer.className))
        .addDataSource("Input", MRInput.createConfigBuilder(new Configuration(conf), TextInputFormat.class,
            input.toString()).groupSplits(false).build());
    Vertex sum = Vertex.create("Summation", ProcessorDescriptor.create(OrderedWordCount.SumProcessor.class.getName()),
        CONSUMERS);
    Vertex sorter = Vertex.create("Sorter", ProcessorDescriptor.create(SortedValuesSorter.class.getName()), 1)
        .addDataSink("Output", MROutput.createConfigBuilder(new Configuration(conf), TextOutputFormat.class,
            out.toString()).build());
    dag.addVertex(tokens).addVertex(sum).addVertex(sorter);
    ScacheTezDag scache = ScacheTezDag.of(dag, conf);
    scache.connect(tokens, sum, OrderedPartitionedKVEdgeConfig.newBuilder(Text.class.getName(),
        IntWritable.class.getName(), HashPartitioner.class.getName()).setFromConfiguration(conf).build());
    scache.connect(sum, sorter, OrderedPartitionedKVEdgeConfig.newBuilder(IntWritable.class.getName(),
        Text.class.getName(), HashPartitioner.class.getName()).setFromConfiguration(conf).build());
    return new Built(dag, scache.usesScache(), out);
  }

  /** A word count over one unordered edge: Tokenizer -(word, 1), unordered-> Summation, which sums per word. */
  private static Built unorderedWordCount(TezConfiguration conf, Path input, String name) {
    Path out = cluster.workDir().resolve("out-" + name);
    DAG dag = DAG.create(name);
    Vertex tokens = Vertex.create("Tokenizer", ProcessorDescriptor.create(WordCount.TokenProcessor.class.getName()))
        .addDataSource("Input", MRInput.createConfigBuilder(new Configuration(conf), TextInputFormat.class,
            input.toString()).groupSplits(false).build());
    Vertex sum = Vertex.create("Summation", ProcessorDescriptor.create(UnorderedSumProcessor.class.getName()),
        CONSUMERS).addDataSink("Output", MROutput.createConfigBuilder(new Configuration(conf), TextOutputFormat.class,
            out.toString()).build());
    dag.addVertex(tokens).addVertex(sum);
    ScacheTezDag scache = ScacheTezDag.of(dag, conf);
    scache.connect(tokens, sum, UnorderedPartitionedKVEdgeConfig.newBuilder(Text.class.getName(),
        IntWritable.class.getName(), HashPartitioner.class.getName()).setFromConfiguration(conf).build());
    return new Built(dag, scache.usesScache(), out);
  }

  /** Tez's sort-merge join: two inputs shuffled, sorted, into one joining vertex (a vertex with two SCache inputs). */
  private static Built sortMergeJoin(TezConfiguration conf, Path left, Path right, String name) {
    Path out = cluster.workDir().resolve("out-" + name);
    DAG dag = DAG.create(name);
    Vertex input1 = Vertex.create("input1", ProcessorDescriptor.create(
        HashJoinExample.ForwardingProcessor.class.getName())).addDataSource("inputFile", MRInput.createConfigBuilder(
            new Configuration(conf), TextInputFormat.class, left.toString()).groupSplits(false).build());
    Vertex input2 = Vertex.create("input2", ProcessorDescriptor.create(
        HashJoinExample.ForwardingProcessor.class.getName())).addDataSource("inputFile", MRInput.createConfigBuilder(
            new Configuration(conf), TextInputFormat.class, right.toString()).groupSplits(false).build());
    Vertex joiner = Vertex.create("joiner", ProcessorDescriptor.create(
        SortMergeJoinExample.SortMergeJoinProcessor.class.getName()), CONSUMERS)
        .addDataSink("joinOutput", MROutput.createConfigBuilder(new Configuration(conf), TextOutputFormat.class,
            out.toString()).build());
    dag.addVertex(input1).addVertex(input2).addVertex(joiner);
    ScacheTezDag scache = ScacheTezDag.of(dag, conf);
    OrderedPartitionedKVEdgeConfig edge = OrderedPartitionedKVEdgeConfig.newBuilder(Text.class.getName(),
        NullWritable.class.getName(), HashPartitioner.class.getName()).setFromConfiguration(conf).build();
    scache.connect(input1, joiner, edge);
    scache.connect(input2, joiner, edge);
    return new Built(dag, scache.usesScache(), out);
  }

  // ---------------------------------------------------------------- running and checking

  record Built(DAG dag, boolean usesScache, Path out) {}

  record Result(String name, boolean usedScache, byte[] output, TezCounters counters, long failedTaskAttempts,
      Map<String, Long> workerDelta, int dagId) {}

  private static Result run(String name, boolean scache, Function<TezConfiguration, Built> build) throws Exception {
    long t = System.nanoTime();
    TezConfiguration conf = cluster.tezConf();
    conf.setBoolean(TezScacheOptions.ENABLED.key(), scache);
    // consumers start when their producers are done, so that their whole input is on their node when
    // they start
    conf.setFloat(ShuffleVertexManager.TEZ_SHUFFLE_VERTEX_MANAGER_MIN_SRC_FRACTION, 1.0f);
    conf.setFloat(ShuffleVertexManager.TEZ_SHUFFLE_VERTEX_MANAGER_MAX_SRC_FRACTION, 1.0f);
    Built built = build.apply(conf);
    Map<String, Long> before = workerStats();
    DAGClient client = session.submitDAG(built.dag());
    client.waitForCompletion();
    DAGStatus status = client.getDAGStatus(EnumSet.of(StatusGetOpts.GET_COUNTERS));
    assertEquals(DAGStatus.State.SUCCEEDED, status.getState(), name + ": " + status.getDiagnostics());
    Map<String, Long> delta = new TreeMap<>(workerStats());
    delta.replaceAll((k, v) -> v - before.getOrDefault(k, 0L));
    TezCounters counters = status.getDAGCounters();
    long failed = counters.findCounter(org.apache.tez.common.counters.DAGCounter.NUM_FAILED_TASKS).getValue();
    System.out.printf("TIMING dag %s (%s): %.1f s, worker counters %s%n", name,
        built.usesScache() ? "SCache" : "Tez shuffle", seconds(t), delta);
    String dag = client.getDagIdentifierString();
    return new Result(name, built.usesScache(), readOutput(built.out()), counters, failed, delta,
        Integer.parseInt(dag.substring(dag.lastIndexOf('_') + 1)));
  }

  private static Map<String, Long> workerStats() {
    return cluster.workerStats();
  }

  private static void assertSameOutput(Result tez, Result scache) {
    assertFalse(tez.usedScache, tez.name + " ran on Tez's shuffle");
    assertTrue(tez.output.length > 0, tez.name + " wrote output");
    assertArrayEquals(tez.output, scache.output, scache.name + " differs from " + tez.name);
  }

  private static void assertShuffledThroughScache(Result scache, long blocks) {
    assertTrue(scache.usedScache, scache.name + " used SCache");
    assertEquals(blocks, scache.counters.findCounter(ScacheTezCounter.BLOCKS_READ).getValue(),
        "one block read per producer and partition");
    assertEquals(scache.counters.findCounter(ScacheTezCounter.BYTES_READ).getValue(),
        scache.counters.findCounter(TaskCounter.SHUFFLE_BYTES).getValue(), "every shuffled byte came from SCache");
  }

  /**
   * Every consumer task was given a location hint for the worker the SCache master placed its
   * partitions on (the application master's log), that worker is the one the task itself finds in
   * the master's schedule, and the task ran on that worker's node (the task's log): each NodeManager
   * has an address of its own, so the hint names one node. No consumer of the DAG read a block
   * from another worker.
   */
  private static void assertPlacement(Result scache, String vertex, long consumerTasks) throws IOException {
    Placement placement = placement(scache, vertex);
    long on = scache.counters.findCounter(ScacheTezCounter.CONSUMERS_ON_SCHEDULED_WORKER).getValue();
    long off = scache.counters.findCounter(ScacheTezCounter.CONSUMERS_OFF_SCHEDULED_WORKER).getValue();
    long none = scache.counters.findCounter(ScacheTezCounter.CONSUMERS_WITHOUT_SCHEDULE).getValue();
    System.out.printf("PLACEMENT %s vertex %s: %s (DAG-wide %d on their worker, %d elsewhere, %d without schedule); "
        + "worker reads %s%n", scache.name, vertex, placement, on, off, none, scache.workerDelta);
    assertEquals(consumerTasks, placement.hinted.size(), "every consumer task was scheduled with a hint: " + placement);
    assertEquals(placement.hinted, placement.scheduled, "the hints name the workers of the master's schedule");
    assertEquals(placement.scheduled, placement.ranOn,
        "every consumer task ran on the node of its pre-scheduled worker");
    assertEquals(0, none, "every consumer found a schedule");
    assertEquals(0, off, "no consumer of the DAG ran away from its worker");
    assertEquals(0L, scache.workerDelta.getOrDefault("read.remote.blocks", 0L), "no consumer read remote data");
  }

  /**
   * Every consumer task of the given vertices (every consumer vertex of the DAG, with its task count) was hinted to
   * the worker of the master's schedule and found that schedule; the tasks that ran away from it are exactly those
   * the DAG's counters count elsewhere, and blocks were read across workers only if some task did.
   */
  private static void assertPlacementHintedAndCounted(Result scache, Map<String, Long> consumerTasks)
      throws IOException {
    long placed = 0;
    long away = 0;
    for (Map.Entry<String, Long> vertex : consumerTasks.entrySet()) {
      Placement placement = placement(scache, vertex.getKey());
      System.out.printf("PLACEMENT %s vertex %s: %s%n", scache.name, vertex.getKey(), placement);
      assertEquals(vertex.getValue(), placement.hinted.size(), "every consumer task was scheduled with a hint: "
          + placement);
      assertEquals(placement.hinted, placement.scheduled, "the hints name the workers of the master's schedule");
      for (Map.Entry<Integer, String> task : placement.scheduled.entrySet()) {
        if (task.getValue().equals(placement.ranOn.get(task.getKey()))) {
          placed++;
        } else {
          away++;
        }
      }
    }
    long on = scache.counters.findCounter(ScacheTezCounter.CONSUMERS_ON_SCHEDULED_WORKER).getValue();
    long off = scache.counters.findCounter(ScacheTezCounter.CONSUMERS_OFF_SCHEDULED_WORKER).getValue();
    long none = scache.counters.findCounter(ScacheTezCounter.CONSUMERS_WITHOUT_SCHEDULE).getValue();
    long remote = scache.workerDelta.getOrDefault("read.remote.blocks", 0L);
    System.out.printf("PLACEMENT %s: %d on their worker, %d elsewhere, %d without schedule; worker reads %s%n",
        scache.name, on, off, none, scache.workerDelta);
    assertEquals(0, none, "every consumer found a schedule");
    assertEquals(placed, on, "the DAG counts each consumer that ran on its worker");
    assertEquals(away, off, "the DAG counts each consumer that ran away from its worker");
    assertEquals(away == 0, remote == 0, "blocks were read across workers exactly when a consumer ran away: " + remote);
  }

  /** Where the consumer tasks of one vertex were hinted to, scheduled on, and ran, by task index. */
  record Placement(Map<Integer, String> hinted, Map<Integer, String> scheduled, Map<Integer, String> ranOn) {
    @Override
    public String toString() {
      return "hints " + hinted + ", scheduled " + scheduled + ", ran on " + ranOn;
    }
  }

  /** The application master's hints and the consumer tasks' own lines of one vertex. */
  private static Placement placement(Result scache, String vertex) throws IOException {
    Map<Integer, String> hinted = new TreeMap<>();
    for (String line : logLines("SCache placement: dag " + scache.dagId + " vertex " + vertex + " task ")) {
      java.util.regex.Matcher m = java.util.regex.Pattern.compile("task (\\d+) .* -> worker (\\S+) hint")
          .matcher(line);
      assertTrue(m.find(), line);
      hinted.put(Integer.parseInt(m.group(1)), m.group(2));
    }
    Map<Integer, String> scheduled = new TreeMap<>();
    Map<Integer, String> ranOn = new TreeMap<>();
    for (String line : logLines("SCache consumer: dag " + scache.dagId + " vertex " + vertex + " task ")) {
      java.util.regex.Matcher m = java.util.regex.Pattern.compile(
          "task (\\d+) .* placed on worker (\\S+), runs on worker (\\S+)").matcher(line);
      assertTrue(m.find(), line);
      scheduled.put(Integer.parseInt(m.group(1)), m.group(2));
      ranOn.put(Integer.parseInt(m.group(1)), m.group(3));
    }
    return new Placement(hinted, scheduled, ranOn);
  }

  /** The lines containing {@code marker} of every container log of the cluster (the session is still running). */
  private static java.util.List<String> logLines(String marker) throws IOException {
    return cluster.containerLogLines(marker);
  }

  // ---------------------------------------------------------------- data

  private static Path writeWords(String name, int files, int lines, int vocabulary, long seed) throws IOException {
    return cluster.writeWords(name, files, lines, vocabulary, 8, seed);
  }

  /** Every part file of an output directory, in name order, concatenated. */
  private static byte[] readOutput(Path dir) throws IOException {
    SortedMap<String, byte[]> parts = new TreeMap<>();
    try (Stream<Path> s = Files.list(dir)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        if (p.getFileName().toString().startsWith("part-")) {
          parts.put(p.getFileName().toString(), Files.readAllBytes(p));
        }
      }
    }
    java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();
    for (byte[] b : parts.values()) {
      all.write(b);
    }
    return all.toByteArray();
  }

  private static double seconds(long since) {
    return (System.nanoTime() - since) / 1e9;
  }
}
